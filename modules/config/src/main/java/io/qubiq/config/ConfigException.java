package io.qubiq.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The configuration cannot be used as written: the operator must edit the file (or set the
 * environment variables it names) and start again. Carries every problem found, not just the first;
 * the message lists them one per line, in file order, ready to print as it is.
 */
public final class ConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<ConfigProblem> problems;
    private final boolean unreadable;

    public ConfigException(List<ConfigProblem> problems) {
        this(problems, false);
    }

    /**
     * @param unreadable the text could not be read as YAML at all (a syntax error, a file that cannot be
     *     read): there is no configuration to speak of, only a text to fix
     */
    public ConfigException(List<ConfigProblem> problems, boolean unreadable) {
        super(describe(problems));
        this.unreadable = unreadable;
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** True when the text could not be read as YAML at all, rather than binding with problems. */
    public boolean unreadable() {
        return unreadable;
    }

    /** Every problem, in file order. Never empty. */
    public List<ConfigProblem> problems() {
        return problems;
    }

    private static String describe(List<ConfigProblem> problems) {
        String noun = problems.size() == 1 ? "problem" : "problems";
        return problems.size() + " configuration " + noun + ":\n"
                + problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n"));
    }
}
