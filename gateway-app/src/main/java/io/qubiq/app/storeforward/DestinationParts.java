package io.qubiq.app.storeforward;

import io.qubiq.app.lifecycle.DegradedPartSource;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The channels whose destination the connection monitor finds DOWN, each named as its channel
 * component ({@code channel:db}) with the probe's error. UNKNOWN (not probed yet) is not down, and
 * neither is a channel above its high-water mark: its pressure alarm says so. A channel that is not
 * running is left out: the component that failed to start is listed for it (the audit journal for
 * {@code channel:audit}).
 */
public final class DestinationParts implements DegradedPartSource {

    private final ConnectionMonitor monitor;
    private final List<StoreForwardChannel<?>> channels;

    public DestinationParts(ConnectionMonitor monitor, Map<String, StoreForwardChannel<?>> channels) {
        this.monitor = monitor;
        this.channels = List.copyOf(channels.values());
    }

    @Override
    public List<DegradedPart> degradedParts() {
        return channels.stream()
                .flatMap(channel -> down(channel).stream())
                .toList();
    }

    private Optional<DegradedPart> down(StoreForwardChannel<?> channel) {
        if (channel.status().state() == ChannelState.STOPPED) {
            return Optional.empty(); // not running: its component's failure (or the shutdown) is what counts
        }
        return monitor.status(channel.connection())
                .filter(status -> status.state() == ConnectionState.DOWN)
                .map(status -> new DegradedPart(channel.name(), ConnectionState.DOWN.name(), reason(status)));
    }

    private static String reason(ConnectionStatus status) {
        return "destination down since " + status.since() + ": " + status.lastError().orElse("no answer");
    }
}
