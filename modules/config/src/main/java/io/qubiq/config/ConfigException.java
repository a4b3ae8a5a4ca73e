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

    public ConfigException(List<ConfigProblem> problems) {
        super(describe(problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
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
