package io.qubiq.app.storeforward;

import io.qubiq.app.lifecycle.DegradedPartSource;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Optional;

/**
 * The channels whose destination the connection monitor finds DOWN, each named as its channel
 * component ({@code channel:db}) with the probe's error, and the channels whose full buffer is
 * refusing new items ({@code FULL}, "refusing: buffer full": items are being lost). UNKNOWN (not
 * probed yet) is not down, and neither is a channel above its high-water mark that still takes
 * items: its pressure alarm says so. A channel whose forwarder failed and is being restarted
 * ({@code FAILED}, until it delivers again) is listed with its last error, before any other reason. A
 * channel that is not running is left out: the component that failed to start is listed for it (the
 * audit journal for {@code channel:audit}).
 */
public final class DestinationParts implements DegradedPartSource {

    private final ConnectionMonitor monitor;
    /** The channels running now. */
    private final Supplier<Map<String, StoreForwardChannel<?>>> channels;

    public DestinationParts(ConnectionMonitor monitor, Supplier<Map<String, StoreForwardChannel<?>>> channels) {
        this.monitor = monitor;
        this.channels = channels;
    }

    @Override
    public List<DegradedPart> degradedParts() {
        return channels.get().values().stream()
                .flatMap(channel -> down(channel).stream())
                .toList();
    }

    private Optional<DegradedPart> down(StoreForwardChannel<?> channel) {
        return part(channel.name(), channel.status(), monitor.status(channel.connection()));
    }

    /** The part one channel is, given its status and what the connection monitor knows of its destination. */
    static Optional<DegradedPart> part(String name, ChannelStatus channel, Optional<ConnectionStatus> destination) {
        if (channel.state() == ChannelState.STOPPED) {
            return Optional.empty(); // not running: its component's failure (or the shutdown) is what counts
        }
        String refusing = channel.refusing() ? "; " + REFUSING : "";
        if (channel.state() == ChannelState.FAILED) {
            String down = destination.filter(status -> status.state() == ConnectionState.DOWN)
                    .map(status -> "; " + reason(status)).orElse("");
            return Optional.of(new DegradedPart(name, ChannelState.FAILED.name(), FORWARDER_FAILED
                    + channel.lastError().map(error -> " (last error: " + error + ")").orElse("") + down + refusing));
        }
        Optional<DegradedPart> down = destination
                .filter(status -> status.state() == ConnectionState.DOWN)
                .map(status -> new DegradedPart(name, ConnectionState.DOWN.name(), reason(status) + refusing));
        if (down.isPresent() || !channel.refusing()) {
            return down;
        }
        return Optional.of(new DegradedPart(name, ChannelState.FULL.name(), REFUSING));
    }

    private static String reason(ConnectionStatus status) {
        return "destination down since " + status.since() + ": " + status.lastError().orElse("no answer");
    }

    /** The reason given for a channel whose forwarder failed, before its last error. */
    static final String FORWARDER_FAILED = "forwarder failed; restarting it with backoff, buffered items are kept";

    /** The reason given for a channel whose full buffer turns new items away. */
    static final String REFUSING = "refusing: buffer full";
}
