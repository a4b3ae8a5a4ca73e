/**
 * The root of the configuration file: {@link io.qubiq.app.config.GatewayConfig} composes the sections
 * the modules declare, plus the few the application owns itself (gateway identity, lifecycle, logging,
 * disk thresholds, the QuestDB server of the historian, the sections whose key selects a kind,
 * {@link io.qubiq.app.config.DeviceConfig} and {@link io.qubiq.app.config.OutboundConfig}, which only
 * their kinds look inside). Also here:
 * the checks that span sections ({@code PipelineReferences}, {@code AuditReferences}: a reference names
 * an outbound connection of the right kind), where the configuration comes from
 * ({@link io.qubiq.app.config.ConfigSource}, {@link io.qubiq.app.config.LoadedConfig}: source, revision,
 * environment), the configuration API's reads and dry runs ({@link io.qubiq.app.config.RunningConfigAccess})
 * and the heap a configuration needs
 * ({@link io.qubiq.app.config.HeapRecommendation}, for {@code qubiq check-config}).
 *
 * <p><b>Owns</b> the shape of the file and its cross-section rules; {@code docs/configuration.md} is
 * generated from this tree.
 *
 * <p><b>Must not</b> declare a component's own settings (each module declares its record next to the code
 * that uses it, with {@code @Doc} and {@code @Default}), and must not open, start or write anything: a
 * configuration is checked completely before anything runs.
 */
package io.qubiq.app.config;
