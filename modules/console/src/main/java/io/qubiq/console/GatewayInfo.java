package io.qubiq.console;

import java.time.Instant;

/** Who this gateway is, for the console header and /health. */
public record GatewayInfo(String name, String version, Instant startedAt) {
}
