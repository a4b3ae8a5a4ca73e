package io.qubiq.config;

import io.qubiq.config.YamlValue.Position;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Gathers the problems of one file as binding walks it, so that nothing stops at the first one.
 * Owned by a single load; not thread-safe.
 */
final class ProblemCollector {

    private final String file;
    private final List<ConfigProblem> problems = new ArrayList<>();

    ProblemCollector(String file) {
        this.file = file;
    }

    void add(Position at, String keyPath, String message) {
        problems.add(new ConfigProblem(file, at.line(), at.column(), keyPath, message));
    }

    /** A problem with no place in the file, such as a file that cannot be read. */
    void addUnplaced(String message) {
        problems.add(new ConfigProblem(file, 0, 0, "", message));
    }

    int count() {
        return problems.size();
    }

    /** Every problem, in file order (ties keep the order they were found in). */
    List<ConfigProblem> sorted() {
        return problems.stream()
                .sorted(Comparator.comparingInt(ConfigProblem::line).thenComparingInt(ConfigProblem::column))
                .toList();
    }
}
