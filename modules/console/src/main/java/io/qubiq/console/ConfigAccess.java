package io.qubiq.console;

import java.util.List;
import java.util.Map;

/**
 * The console's access to the gateway's configuration (issue 22: read and validate; nothing here changes
 * the running gateway, {@link ConfigChanges} does). The application implements it over the typed declarations the
 * YAML loader uses, and answers with the records declared here, which are the API's JSON. No answer ever
 * holds a secret's value: secret keys read {@code "***"}.
 */
public interface ConfigAccess {

    /**
     * The running configuration.
     *
     * @param source          where it was read from: the file as named on the command line, or the built-in demo
     * @param revision        identifies the text it was read from: {@code sha256:<hex>} of the file's bytes,
     *                        or {@code embedded-demo:<hex>} for the built-in demo
     * @param config          every key after defaults and environment expansion, as the file is keyed;
     *                        secrets masked
     * @param fromEnvironment the keys whose value the file takes from {@code ${VARIABLE}}: read-only for an editor
     * @param fileRevision    the revision of the file now: the one to change it on ({@code PUT /api/v1/config/...});
     *                        differs from {@code revision} when a change waits for a restart
     * @param pendingRestart  the components whose configuration in the file differs from what runs, until the
     *                        gateway restarts ({@code outbound:<id>}, {@code gateway}, …); empty when the file runs
     */
    record Running(String source, String revision, Map<String, Object> config, List<EnvironmentKey> fromEnvironment,
                   String fileRevision, List<String> pendingRestart) {
        public Running {
            fromEnvironment = List.copyOf(fromEnvironment);
            pendingRestart = List.copyOf(pendingRestart);
        }
    }

    /**
     * A key whose value comes from the environment.
     *
     * @param key       the key path, as problems name it ({@code outbound.db.sql.password})
     * @param variables the variables its text refers to, in order
     * @param readOnly  always true: change the variable, not the key
     */
    record EnvironmentKey(String key, List<String> variables, boolean readOnly) {
        public EnvironmentKey {
            variables = List.copyOf(variables);
        }
    }

    /**
     * One thing wrong with a candidate configuration, with the same key path and text as at start-up.
     *
     * @param key    the key path, empty when the problem belongs to no key
     * @param line   1-based line in the text sent, 0 when it has no place
     * @param column 1-based column, 0 when it has no place
     */
    record Problem(String key, String message, int line, int column) {
    }

    /**
     * One key that differs from the running configuration; {@code from} or {@code to} is null where the
     * key is absent on that side. Secrets read {@code "***"}.
     */
    record Change(String key, @MayBeNull Object from, @MayBeNull Object to) {
    }

    /**
     * The answer of a dry run.
     *
     * @param valid    whether the candidate would start
     * @param problems every problem at once, in text order; empty when valid
     * @param diff     what differs from the running configuration (empty when not valid)
     * @param restarts the components applying it would restart, each once: {@code device:<id>},
     *                 {@code outbound:<id>}, {@code pipeline:<id>}, {@code historian}, or {@code gateway}
     *                 for any other change
     * @param questions what a change to this configuration would have to be told about buffered data it
     *                  affects (a {@code max_bytes} below a backlog, a connection removed while it holds
     *                  items), each with the backlogs concerned and the choices; empty when none
     */
    record Validation(boolean valid, List<Problem> problems, List<Change> diff, List<String> restarts,
                      List<ConfigChanges.ChoiceNeeded> questions) {
        public Validation {
            problems = List.copyOf(problems);
            diff = List.copyOf(diff);
            restarts = List.copyOf(restarts);
            questions = List.copyOf(questions);
        }

        public Validation(boolean valid, List<Problem> problems, List<Change> diff, List<String> restarts) {
            this(valid, problems, diff, restarts, List.of());
        }
    }

    Running running();

    /** The JSON Schema (draft 2020-12) of the configuration, generated from the declarations. */
    Map<String, Object> schema();

    /**
     * Checks a whole configuration without applying it.
     *
     * @param text the configuration as YAML (JSON is YAML too)
     * @param name how problems name the text
     * @throws RequestFailure.InvalidRequest when the text is not YAML at all (a syntax error)
     */
    Validation validate(String text, String name);
}
