/**
 * Configuration: a YAML file bound to the application's root record, validated in full, and the
 * Markdown reference generated from the same declarations.
 *
 * <p>Entry points: {@link io.qubiq.config.ConfigLoader#load} returns the bound root record or throws
 * {@link io.qubiq.config.ConfigException} carrying every {@link io.qubiq.config.ConfigProblem};
 * {@link io.qubiq.config.ConfigReference} writes and verifies {@code docs/configuration.md}. For the API:
 * {@link io.qubiq.config.ConfigLoader#bind} also names the keys whose value came from the environment,
 * {@link io.qubiq.config.ConfigTree} shows a bound configuration as JSON values with secrets masked,
 * {@link io.qubiq.config.ConfigDiff} lists what differs between two, and
 * {@link io.qubiq.config.ConfigSchema} writes the JSON Schema, from the same declarations as the reference.
 *
 * <p>Rules the binder enforces:
 * <ul>
 *   <li>Keys are record component names in snake_case ({@code gracePeriodMs} is {@code grace_period_ms});
 *       enum values are constants in lower snake_case ({@code drop_oldest}); map keys are user data, kept
 *       as written and in file order.</li>
 *   <li>Declarations live in core ({@code io.qubiq.core.config}): a missing key takes its
 *       {@code @Default}, parsed like file input; {@code Optional} keys may be left out; a nested record
 *       without a default is built from its own defaults when all its keys have one; every other key is
 *       required. A sealed interface of {@code @Variant} records is selected by the key {@code type}, or,
 *       when it is {@code @SelectedBySection}, by which variant's section is present
 *       ({@code outbound.<name>.sql:}); none, two or an unknown section is a problem naming the variants.
 *       An {@code @Inline} record's keys are written at the level of the record that includes it, as if
 *       declared there (one declaration of a block that several sections share); see
 *       {@link io.qubiq.core.config.Inline} for how problems, secrets, the schema and the reference treat them.</li>
 *   <li>Strict: unknown keys (with a "did you mean" suggestion), duplicate keys, wrong types and values
 *       outside {@code @Range} are errors. There is no coercion: integers are plain decimal digits, booleans
 *       exactly {@code true} or {@code false} (not YAML 1.1's {@code yes}, {@code on}, {@code no}), and a
 *       quoted {@code "8080"} is a string. A string key given a bare {@code yes} keeps "yes". A key written
 *       with no value is an error for a string, number, boolean or enum (it does not mean "use the
 *       default"); for a section, list or map it means empty. Paths are
 *       taken as written, not resolved against the file's directory.</li>
 *   <li>{@code ${VAR}} and {@code ${VAR:-fallback}} inside scalar values are expanded from an injected
 *       environment; {@code $${} is a literal {@code ${}. An unset variable without fallback is an error
 *       naming the key and the variable. A plain value that expands to nothing counts as absent (null).</li>
 *   <li>Every problem is collected, in file order, as {@code file:line:column: key.path: message}; a missing
 *       key is reported at the key that owns its mapping. Values of {@code @Secret} keys never appear in a
 *       message (nor in a dump, a tree or a diff); a key is secret when marked so or named like a credential
 *       ({@code password}, {@code token}, {@code secret}, {@code passphrase}, {@code api_key}, or ending in
 *       {@code _password} and the like). Records implementing {@code ConfigChecked} add cross-key problems once their own keys bound
 *       cleanly; a compact constructor's {@code IllegalArgumentException} is reported the same way.</li>
 *   <li>A mistake in the declarations themselves (unsupported type, {@code @Range} on a string, a sealed
 *       interface whose records lack {@code @Variant}) throws {@link java.lang.IllegalArgumentException}
 *       before any file is read: it is a bug, not a configuration problem.</li>
 * </ul>
 *
 * <p>YAML is read with SnakeYAML's composer only (node graph with positions); no YAML constructor
 * runs, so no YAML 1.1 type guessing and no arbitrary class instantiation. Everything here is
 * stateless between calls and safe to use from any thread.
 */
package io.qubiq.config;
