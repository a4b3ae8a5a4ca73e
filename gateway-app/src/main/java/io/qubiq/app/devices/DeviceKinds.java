package io.qubiq.app.devices;

import io.qubiq.app.config.DeviceConfig;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.connector.ProbeResult;
import io.qubiq.core.tag.TagPath;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every device connection kind the gateway knows, one line each: the only class that names them all.
 * The configuration's section variants ({@link DeviceConfig}) name the same kinds, and a test keeps
 * the two lists equal. Adding a kind: its connector module, its section variant, its
 * {@link DeviceKind} class, and one line here. The static helpers hand a configured connection to its
 * own kind, so callers need not know which kind it is. Immutable; safe to share.
 */
public final class DeviceKinds {

    private static final List<DeviceKind<? extends DeviceConfig>> ALL = List.of(
            new OpcUaKind(),
            new MqttDeviceKind());

    private DeviceKinds() {
    }

    /** Every kind, in the order the documentation lists them. */
    public static List<DeviceKind<? extends DeviceConfig>> all() {
        return ALL;
    }

    /** The names of every kind, the section keys: opcua, mqtt. */
    public static List<String> names() {
        return ALL.stream().map(DeviceKind::name).toList();
    }

    /** The kind of a configured connection; every variant has one (tested), so a miss is a bug. */
    public static DeviceKind<? extends DeviceConfig> of(DeviceConfig config) {
        return ALL.stream().filter(kind -> kind.configType().isInstance(config)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no device kind for " + config.getClass().getName()
                        + "; the kinds are " + names()));
    }

    /** The tag paths, as written, that the connection's configuration declares (its kind decides which). */
    public static List<String> declaredTags(DeviceConfig config) {
        return declaredTags(of(config), config);
    }

    /** The connection's tags estimated up front, for the heap recommendation. */
    public static DeviceKind.TagEstimate tagEstimate(DeviceConfig config) {
        return tagEstimate(of(config), config);
    }

    /** Probes connection {@code id} with the settings {@code config}, by its kind; see {@link DeviceKind#probe}. */
    public static ProbeResult probe(String id, DeviceConfig config, DeviceKind.Context context, Duration timeout) {
        return probe(of(config), id, config, context, timeout);
    }

    /**
     * The running entries of these connections, in their order: each one's connector built by its
     * kind, with the tags it owns. A disabled connection ({@code enabled: false}) has none. Nothing is started.
     */
    public static Map<String, DeviceConnections.Entry> entries(Map<String, DeviceConfig> devices,
                                                               DeviceKind.Context context) {
        Map<String, DeviceConnections.Entry> entries = new LinkedHashMap<>();
        devices.forEach((id, config) -> {
            if (config.enabled()) {
                entries.put(id, entry(of(config), id, config, context));
            }
        });
        return entries;
    }

    private static <C extends DeviceConfig> DeviceConnections.Entry entry(DeviceKind<C> kind, String id,
                                                                          DeviceConfig config,
                                                                          DeviceKind.Context context) {
        C typed = kind.configType().cast(config);
        List<TagPath> tags = kind.declaredTags(typed).stream().map(TagPath::of).toList();
        return new DeviceConnections.Entry(kind.connector(id, typed, context), kind.name(), tags,
                kind.triggersPipelines());
    }

    private static <C extends DeviceConfig> ProbeResult probe(DeviceKind<C> kind, String id, DeviceConfig config,
                                                              DeviceKind.Context context, Duration timeout) {
        return kind.probe(id, kind.configType().cast(config), context, timeout);
    }

    private static <C extends DeviceConfig> List<String> declaredTags(DeviceKind<C> kind, DeviceConfig config) {
        return kind.declaredTags(kind.configType().cast(config));
    }

    private static <C extends DeviceConfig> DeviceKind.TagEstimate tagEstimate(DeviceKind<C> kind,
                                                                              DeviceConfig config) {
        return kind.tagEstimate(kind.configType().cast(config));
    }
}
