package io.qubiq.core.health;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** A connection's state, since when it has held, and the last error seen (kept after recovery). */
public record ConnectionStatus(ConnectionState state, Instant since, Optional<String> lastError) {

    public ConnectionStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(lastError, "lastError");
    }

    public static ConnectionStatus unknown(Instant since) {
        return new ConnectionStatus(ConnectionState.UNKNOWN, since, Optional.empty());
    }

    public static ConnectionStatus up(Instant since) {
        return new ConnectionStatus(ConnectionState.UP, since, Optional.empty());
    }

    public static ConnectionStatus down(Instant since, String error) {
        return new ConnectionStatus(ConnectionState.DOWN, since, Optional.of(error));
    }
}
