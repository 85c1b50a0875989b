package loadlab.waits;

import java.nio.file.Path;

/**
 * The agent's argument, {@code file=PATH[,periodMs=N][,budgetPct=P]}: where the samples go, the shortest pause
 * between two samples, and the share of one core the sampler may spend (it samples less rather than more).
 */
record AgentOptions(Path file, long periodMs, double budget) {

    static final long DEFAULT_PERIOD_MS = 500;
    static final double DEFAULT_BUDGET_PCT = 5.0;

    static AgentOptions parse(String argument) {
        Path file = null;
        long period = DEFAULT_PERIOD_MS;
        double budgetPct = DEFAULT_BUDGET_PCT;
        for (String part : (argument == null ? "" : argument).split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] kv = part.split("=", 2);
            String value = kv.length == 2 ? kv[1].trim() : "";
            switch (kv[0].trim()) {
                case "file" -> file = Path.of(value);
                case "periodMs" -> period = Long.parseLong(value);
                case "budgetPct" -> budgetPct = Double.parseDouble(value);
                default -> throw new IllegalArgumentException("wait-agent: unknown option '" + kv[0]
                        + "'; allowed: file=PATH, periodMs=N, budgetPct=P");
            }
        }
        if (file == null) {
            throw new IllegalArgumentException("wait-agent: file=PATH is required");
        }
        if (period < 10 || budgetPct <= 0 || budgetPct > 100) {
            throw new IllegalArgumentException("wait-agent: periodMs must be >= 10 and budgetPct in (0, 100]");
        }
        return new AgentOptions(file, period, budgetPct / 100);
    }

    String header() {
        return "periodMs=" + periodMs + " budgetPct=" + budget * 100 + " jdk=" + Runtime.version().feature();
    }
}
