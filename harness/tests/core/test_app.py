"""APP: a jar that cannot be measured is refused in one line, exit 2, before anything starts; a good one is started
with the standard Spring properties only, and APP_ARGS gets the run's parts through its placeholders."""

import zipfile

import pytest
from conftest import harness_exit, make

from loadlab.core import app, param_limits, params

BOOT_LAUNCHER = "org.springframework.boot.loader.launch.JarLauncher"


def jar(path, manifest: str | None, zip_file: bool = True):
    if not zip_file:
        path.write_text("not a zip\n")
        return path
    with zipfile.ZipFile(path, "w") as z:
        if manifest is not None:
            z.writestr("META-INF/MANIFEST.MF", manifest)
        z.writestr("BOOT-INF/classes/x.txt", "x")
    return path


def boot_manifest(version: str, main: str = BOOT_LAUNCHER) -> str:
    # A real one wraps long lines at 72 bytes with a leading space: the reader must join them.
    return (
        f"Manifest-Version: 1.0\r\nMain-Class: {main}\r\nStart-Class: com.example.orders.Ord\r\n ersApplication\r\n"
        f"Spring-Boot-Version: {version}\r\n\r\nName: other-section\r\nSpring-Boot-Version: 9.9\r\n"
    )


@pytest.mark.parametrize(
    "make_jar, expected",
    [
        (lambda d: d / "missing.jar", "is not a file (no such path)"),
        (lambda d: d, "is not a file (a directory or a device)"),
        (lambda d: jar(d / "text.jar", None, zip_file=False), "is not a jar"),
        (
            lambda d: jar(d / "plain.jar", "Manifest-Version: 1.0\r\nMain-Class: com.example.Main\r\n"),
            "Main-Class com.",
        ),
        (lambda d: jar(d / "no-manifest.jar", None), "is not an executable Spring Boot jar"),
        (lambda d: jar(d / "boot31.jar", boot_manifest("3.1.5")), "Spring Boot 3.1.5, older than 3.2"),
        (
            lambda d: jar(d / "boot2.jar", boot_manifest("2.7.18", "org.springframework.boot.loader.JarLauncher")),
            "2.7.18",
        ),
    ],
)
def test_a_jar_that_cannot_be_measured_is_refused_in_one_line_naming_it(tmp_path, make_jar, expected):
    path = make_jar(tmp_path)
    with pytest.raises(params.ParamError) as e:
        params.parse({"APP": str(path)})
    assert f"APP='{path}'" in str(e.value) and expected in str(e.value)
    assert str(e.value).endswith("allowed: an executable Spring Boot jar (Boot >= 3.2)")
    assert len(str(e.value).splitlines()) == 1


def test_a_boot_32_jar_is_accepted_with_its_version_and_start_class(tmp_path):
    path = jar(tmp_path / "orders.jar", boot_manifest("3.2.0"))
    found = app.inspect_jar(str(path))
    assert (found.boot_version, found.start_class) == ("3.2.0", "com.example.orders.OrdersApplication")
    assert params.parse({"APP": str(path)}).app == str(path.resolve())


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"APP_PATH": "orders"}, "APP_PATH='orders' does not start with a single /"),
        ({"APP_PATH": "/orders?q=a b"}, "has spaces, control or non-ASCII characters"),
        ({"APP_PATH": "/orders#top"}, "has a fragment (#)"),
        ({"APP_ARGS": "--x='unclosed"}, "cannot be split into arguments"),
        ({"APP_ARGS": "--backend={delay-url}"}, "has an unknown placeholder {delay-url}"),
        ({"APP_ARGS": "--backend={dealy_url}"}, "has an unknown placeholder {dealy_url}"),
        ({"APP_ARGS": "--server.port=9000"}, "sets server.port, which the harness sets for each mode"),
        ({"APP_ARGS": "--spring.threads.virtual.enabled=true"}, "sets spring.threads.virtual.enabled"),
        ({"SCENARIO": "db"}, "SCENARIO=db does not apply with APP"),
        ({"CPU_MS": "5"}, "CPU_MS=5 does not apply with APP"),
    ],
)
def test_bad_app_path_and_args_are_refused_in_one_line(tmp_path, env, expected):
    good = jar(tmp_path / "orders.jar", boot_manifest("4.1.1"))
    with pytest.raises(params.ParamError) as e:
        params.parse({"APP": str(good), **env})
    assert expected in str(e.value) and len(str(e.value).splitlines()) == 1


@pytest.mark.parametrize("name, value", [("APP_PATH", "/orders"), ("APP_ARGS", "--x=1")])
def test_app_companions_without_app_are_refused_rather_than_silently_ignored(name, value):
    with pytest.raises(params.ParamError) as e:
        params.parse({name: value})
    assert (
        str(e.value)
        == f"{name}={value!r} has no effect without APP; allowed: {params.BY_NAME[name].default!r} (or set APP)"
    )


def test_make_bench_with_an_old_boot_jar_stops_in_one_line_before_anything_is_built_or_created(tmp_path):
    old = jar(tmp_path / "legacy.jar", boot_manifest("3.1.0"))
    r = make("bench", env={"APP": str(old), "RESULTS_DIR": str(tmp_path / "results")}, timeout=60)
    assert r.returncode == 2
    lines = [line for line in r.stderr.splitlines() if line.startswith("loadlab:")]
    assert len(lines) == 1 and "Spring Boot 3.1.0, older than 3.2" in lines[0]
    assert "building" not in r.stdout and not (tmp_path / "results").exists()


def test_make_bench_with_threadlocal_kb_and_app_is_refused_in_one_line_with_exit_2(tmp_path):
    good = jar(tmp_path / "orders.jar", boot_manifest("4.1.1"))
    env = {"APP": str(good), "THREADLOCAL_KB": "4", "RESULTS_DIR": str(tmp_path / "results")}
    r = make("bench", env=env, timeout=60)
    assert r.returncode == 2 and harness_exit(r) == 2, r.stdout + r.stderr
    lines = [line for line in r.stderr.splitlines() if line.startswith("loadlab:")]
    assert len(lines) == 1, r.stderr
    assert "THREADLOCAL_KB=4 does not apply with APP" in lines[0] and "allowed: 0" in lines[0]
    assert "building" not in r.stdout and not (tmp_path / "results").exists()


def test_the_mode_is_set_by_the_standard_spring_properties_only():
    virtual = app.mode_args("virtual", 200, "10.0.0.2", 8080)
    platform = app.mode_args("platform", 64, "10.0.0.2", 8080)
    assert "--spring.threads.virtual.enabled=true" in virtual
    assert not any("tomcat.threads.max" in a for a in virtual)
    assert {"--spring.threads.virtual.enabled=false", "--server.tomcat.threads.max=64"} <= set(platform)
    for args in (virtual, platform):
        assert {"--server.address=10.0.0.2", "--server.port=8080"} <= set(args)
        # Every property the harness sets is one APP_ARGS may not set (check_args refuses them).
        assert {a[2:].split("=")[0] for a in args} <= set(app.HARNESS_PROPERTIES)


def test_placeholders_become_the_runs_delay_service_with_delay_ms_and_its_database():
    words = app.check_args("--backend.url={delay_url} '--spring.datasource.url={db_url}' --name='a b' --h=${HOME}")
    values = app.placeholder_values("10.0.0.3", 8081, 250, "10.0.0.3", 5499, "loadlab")
    assert app.substitute(words, values) == [
        "--backend.url=http://10.0.0.3:8081/delay?ms=250",
        "--spring.datasource.url=jdbc:postgresql://10.0.0.3:5499/loadlab?user=loadlab",
        "--name=a b",
        "--h=${HOME}",
    ]
    assert app.uses_database(words) and not app.uses_database(["--backend.url={delay_url}"])


def test_the_runs_database_admits_the_apps_own_pool_not_db_pool():
    """DB_POOL sizes the thread-service's pool; an app's pool is its own: PostgreSQL allowed DB_POOL + 10 = 20
    connections, fewer than an app with a larger pool of its own opens."""
    headroom = param_limits.DB_CONNECTION_HEADROOM
    assert app.db_max_connections(app.check_args("--spring.datasource.url={db_url}"), headroom) >= 100
    big = app.check_args("--spring.datasource.url={db_url} --spring.datasource.hikari.maximum-pool-size=150")
    assert app.db_max_connections(big, headroom) == 150 + headroom
    tiny = app.check_args("--spring.datasource.hikari.maximum-pool-size=2")
    assert app.db_max_connections(tiny, headroom) == app.APP_DB_CONNECTIONS
