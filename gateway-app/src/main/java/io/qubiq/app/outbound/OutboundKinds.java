package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.config.OutputConfig;
import java.util.List;

/**
 * Every outbound kind the gateway knows, one line each: the only class that names them all. The
 * configuration's section variants ({@link OutboundConfig}, {@link OutputConfig}) name the same kinds,
 * and a test keeps the three lists equal. Adding a kind: its sink module, its two section variants, its
 * {@link OutboundKind} class, and one line here. Immutable; safe to share.
 */
public final class OutboundKinds {

    private static final List<OutboundKind<?, ?, ?>> ALL = List.of(
            new QuestDbKind(),
            new SqlKind(),
            new MongoDbKind(),
            new MqttKind());

    private OutboundKinds() {
    }

    /** Every kind, in the order the documentation lists them. */
    public static List<OutboundKind<?, ?, ?>> all() {
        return ALL;
    }

    /** The names of every kind, the section keys: questdb, sql, mongodb, mqtt. */
    public static List<String> names() {
        return ALL.stream().map(OutboundKind::name).toList();
    }

    /** The kind of a configured connection; every variant has one (tested), so a miss is a bug. */
    public static OutboundKind<?, ?, ?> of(OutboundConfig config) {
        return ALL.stream().filter(kind -> kind.configType().isInstance(config)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no outbound kind for " + config.getClass().getName()
                        + "; the kinds are " + names()));
    }

    /** The kind of a pipeline output; every variant has one (tested), so a miss is a bug. */
    public static OutboundKind<?, ?, ?> of(OutputConfig output) {
        return ALL.stream().filter(kind -> kind.outputType().isInstance(output)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no outbound kind for " + output.getClass().getName()
                        + "; the kinds are " + names()));
    }
}
