/**
 * The root of the configuration file: {@link io.qubiq.app.config.GatewayConfig} composes the sections
 * the modules declare, plus the few the application owns itself (gateway identity, lifecycle, logging,
 * disk thresholds, the QuestDB server of the historian, the sections whose key selects a kind,
 * {@link io.qubiq.app.config.DeviceConfig} and {@link io.qubiq.app.config.OutboundConfig}, which only
 * their kinds look inside). Also here:
 * the checks that span sections ({@code PipelineReferences}, {@code AuditReferences}: a reference names
 * an outbound connection of the right kind), where the configuration comes from
 * ({@link io.qubiq.app.config.ConfigSource}, {@link io.qubiq.app.config.LoadedConfig}: source, revision,
 * environment), the configuration API's reads and dry runs ({@link io.qubiq.app.config.RunningConfigAccess}),
 * its writes to the file with their revisions ({@link io.qubiq.app.config.ConfigWrites}, with its parts by
 * role: {@code ChangeCommit} (validate, ask, keep secrets, commit, apply), {@code ChangeSecrets},
 * {@code BacklogQuestion}, {@code RevisionViews} (masked diffs, rollback previews), {@code ChangeRefusals},
 * {@code ChangeAudit}, {@code ConfigFile}, and {@code LeafEdits} and {@code SecretText};
 * {@link io.qubiq.app.config.ConfigState}: what runs and what the file holds), the seam that applies a written change ({@link io.qubiq.app.config.ConfigApplier})
 * and the heap a configuration needs
 * ({@link io.qubiq.app.config.HeapRecommendation}, for {@code qubiq check-config}).
 *
 * <p><b>Owns</b> the shape of the file and its cross-section rules; {@code docs/configuration.md} is
 * generated from this tree.
 *
 * <p><b>Must not</b> declare a component's own settings (each module declares its record next to the code
 * that uses it, with {@code @Doc} and {@code @Default}), and must not open, start or write anything but the
 * configuration file and its revisions (the demo's copy in the data directory included): a configuration
 * is checked completely before anything runs, and before anything is written.
 */
package io.qubiq.app.config;
