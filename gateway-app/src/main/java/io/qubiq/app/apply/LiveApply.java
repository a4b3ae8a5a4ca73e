package io.qubiq.app.apply;

import io.qubiq.app.config.ConfigApplier;
import io.qubiq.app.config.DeviceConfig;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.devices.DeviceKinds;
import io.qubiq.app.config.OutboundConfig;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundKinds;
import java.time.Clock;
import io.qubiq.core.connector.DeviceKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a written configuration to the running gateway, component by component
 * ({@link ConfigApplier}). What it changes live today:
 * <ul>
 *   <li>{@code device:<id>}: a device connection added, changed or removed. The changed connection's
 *       connector is closed and a new one built by its kind and started; the other connections keep
 *       collecting, untouched. Its tags are owned by the new connector from then on (writes go there),
 *       it settles anew on /health within its own readiness grace, and a connection that is new gets its
 *       metrics.</li>
 *   <li>{@code outbound:<id>}: an outbound connection whose section changed but kept its kind. Changed
 *       storage settings (size limit, water marks, overflow policy, durability, quarantine limit) reopen
 *       the channel's buffer and quarantine with them; a new sink replaces the old one together with the
 *       new delivery settings (batch, linger, backoff, attempt cap, fast path). The backlog, the
 *       quarantine and the counters stay, and delivery resumes from the buffer's head
 *       ({@link OutboundConnection#reconfigure}). Producers are never turned away meanwhile.</li>
 * </ul>
 * Everything else is answered as waiting for a restart of the gateway: an outbound connection added,
 * removed, given another kind or another {@code segment_bytes}, and a device connection
 * whose messages trigger a pipeline (the pipeline's trigger holds that connector) or whose new
 * connector cannot be built (logged; the old one keeps running). Nothing is ever reported applied
 * that is not running.
 *
 * <p>Threading: one {@link #apply} at a time (the configuration API serialises writes).
 */
public final class LiveApply implements ConfigApplier {

    private static final Logger log = LoggerFactory.getLogger(LiveApply.class);
    private static final String DEVICE = "device:";
    private static final String OUTBOUND = "outbound:";

    private final DeviceConnections devices;
    private final DeviceKind.Context context;
    private final Consumer<String> connectionAdded;
    private final Map<String, OutboundConnection<?>> outbound;
    private final Clock clock;

    /**
     * @param context         what device kinds build connectors with (the running gateway's)
     * @param connectionAdded told the id of a device connection added live (binds its metrics)
     * @param outbound        the running outbound connections
     */
    public LiveApply(DeviceConnections devices, DeviceKind.Context context, Consumer<String> connectionAdded,
                     Map<String, OutboundConnection<?>> outbound, Clock clock) {
        this.devices = devices;
        this.context = context;
        this.connectionAdded = connectionAdded;
        this.outbound = Map.copyOf(outbound);
        this.clock = clock;
    }

    @Override
    public Applied apply(LoadedConfig before, LoadedConfig after, Set<String> components) {
        List<String> applied = new ArrayList<>();
        List<String> needRestart = new ArrayList<>();
        for (String component : components) {
            boolean live = component.startsWith(DEVICE)
                    ? applyDevice(component.substring(DEVICE.length()), before.config(), after.config())
                    : component.startsWith(OUTBOUND)
                    && applyOutbound(component.substring(OUTBOUND.length()), before.config(), after.config());
            (live ? applied : needRestart).add(component);
        }
        if (!needRestart.isEmpty()) {
            log.info("Configuration changes that wait for a restart of the gateway: {}", needRestart);
        }
        return new Applied(applied, needRestart);
    }

    private boolean applyDevice(String id, GatewayConfig before, GatewayConfig after) {
        if (triggersAPipeline(id, before) || triggersAPipeline(id, after)) {
            log.info("Device connection {} triggers pipelines with its messages: its change waits for a restart", id);
            return false;
        }
        DeviceConfig next = after.devices().get(id);
        if (next == null || !next.enabled()) {
            devices.replace(id, Optional.empty());
            return true;
        }
        DeviceConnections.Entry entry;
        try {
            entry = DeviceKinds.entries(Map.of(id, next), context).get(id);
        } catch (RuntimeException e) {
            log.error("Device connection {}: its new configuration could not be built ({}); the connection keeps"
                    + " running as it was until the gateway restarts", id, e.toString());
            return false;
        }
        boolean added = !devices.ids().contains(id);
        devices.replace(id, Optional.of(entry));
        if (added) {
            connectionAdded.accept(id);
        }
        log.info("Device connection {} {} live", id, added ? "added" : "changed");
        return true;
    }

    private boolean applyOutbound(String id, GatewayConfig before, GatewayConfig after) {
        OutboundConnection<?> connection = outbound.get(id);
        OutboundConfig was = before.outbound().get(id);
        OutboundConfig next = after.outbound().get(id);
        if (connection == null || was == null || next == null) {
            log.info("Outbound connection {} was added or removed: that waits for a restart", id);
            return false;
        }
        if (OutboundKinds.of(next) != connection.kind()) {
            log.info("Outbound connection {} changes its kind: that waits for a restart", id);
            return false;
        }
        if (was.storeAndForward().segmentBytes() != next.storeAndForward().segmentBytes()) {
            log.info("Outbound connection {} changes segment_bytes: that waits for a restart", id);
            return false;
        }
        try {
            connection.reconfigure(next, clock);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.error("Outbound connection {}: its new configuration could not be applied ({}); it keeps running as"
                    + " it was until the gateway restarts", id, e.toString());
            return false;
        }
        log.info("Outbound connection {} changed live; its backlog and quarantine are kept", id);
        return true;
    }

    private static boolean triggersAPipeline(String id, GatewayConfig config) {
        return config.pipelines().values().stream()
                .anyMatch(p -> p.trigger().mqtt().map(t -> t.connection().equals(id)).orElse(false));
    }
}
