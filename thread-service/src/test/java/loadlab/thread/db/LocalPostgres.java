package loadlab.thread.db;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real, throw-away PostgreSQL for the /db tests: Debian's server binaries, a fresh cluster in a temp folder,
 * loopback only, role {@code loadlab} trusted. PostgreSQL refuses to run as root, so as root it runs as the
 * {@code postgres} system user. {@link #find()} is null when the binaries are not installed (the tests then skip).
 */
final class LocalPostgres implements AutoCloseable {

    private final Path bin;

    private final Path dir;

    private final int port;

    private LocalPostgres(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
    }

    /** The newest /usr/lib/postgresql/N/bin with a server, or null. */
    static Path find() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                .filter(b -> Files.isExecutable(b.resolve("pg_ctl")) && Files.isExecutable(b.resolve("initdb")))
                .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString()
                    .replaceAll("\\D", "0"))))
                .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    static LocalPostgres start(Path bin) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("loadlab-pg-");
        int port = freePort();
        LocalPostgres pg = new LocalPostgres(bin, dir, port);
        if (isRoot()) {
            // The postgres user must reach and own the folder.
            dir.toFile().setExecutable(true, false);
            dir.toFile().setReadable(true, false);
            pg.run(List.of("chown", "postgres:", dir.toString()), false);
        }
        pg.run(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-A", "trust", "-U",
                "loadlab", "--no-sync"), true);
        pg.run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                dir.resolve("log").toString(), "-w", "-t", "60", "-o",
                "-p " + port + " -k '' -c listen_addresses=127.0.0.1 -c fsync=off", "start"), true);
        return pg;
    }

    String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate", "-w",
                "stop"), true);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    private void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres && isRoot()) {
            full.addAll(Arrays.asList("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Process process = new ProcessBuilder(full).redirectErrorStream(true)
            .redirectOutput(dir.resolve("command.log").toFile())
            .start();
        if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", full) + " failed: " + Files.readString(dir.resolve("command.log")));
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

}
