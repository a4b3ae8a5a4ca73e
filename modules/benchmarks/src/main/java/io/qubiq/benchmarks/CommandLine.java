package io.qubiq.benchmarks;

import java.nio.file.Path;

/**
 * A harness's command line, read flag by flag:
 * <pre>{@code
 * CommandLine line = new CommandLine(args, USAGE);
 * while (line.next()) {
 *     switch (line.flag()) {
 *         case "--rows" -> o.rows = line.count();
 *         default -> throw line.unknown();
 *     }
 * }
 * }</pre>
 * {@code -h} and {@code --help} print the usage and exit 0. A missing or malformed value, or an unknown
 * flag, is an {@link IllegalArgumentException} that names the flag and the value; {@link
 * ThroughputHarness#main} turns it into exit code 1 before anything starts. Not thread-safe (main only).
 */
final class CommandLine {

    private final String[] args;
    private final String usage;
    private int next;
    private String flag;

    CommandLine(String[] args, String usage) {
        this.args = args;
        this.usage = usage;
    }

    /** Moves to the next flag; false at the end. Prints the usage and exits 0 on {@code -h}/{@code --help}. */
    boolean next() {
        if (next >= args.length) {
            return false;
        }
        flag = args[next++];
        if (flag.equals("-h") || flag.equals("--help")) {
            System.out.println(usage);
            System.exit(0);
        }
        return true;
    }

    /** The current flag. */
    String flag() {
        return flag;
    }

    /** The current flag's value, as given. */
    String text() {
        if (next >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value (try --help)");
        }
        return args[next++];
    }

    /** The current flag's value as a count: {@code 500000}, {@code 500k}, {@code 2.5m}, {@code 1_000}. */
    long count() {
        String value = text();
        try {
            return Counts.count(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes a count such as 200000, 200k or 1.5m, not '" + value
                    + "'");
        }
    }

    /** The current flag's value as a whole number. */
    int integer() {
        String value = text();
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes a whole number, not '" + value + "'");
        }
    }

    /** The current flag's value as a path. */
    Path path() {
        return Path.of(text());
    }

    /** The error for a flag no case of the harness knows. */
    IllegalArgumentException unknown() {
        return new IllegalArgumentException("unknown argument " + flag + " (try --help)");
    }
}
