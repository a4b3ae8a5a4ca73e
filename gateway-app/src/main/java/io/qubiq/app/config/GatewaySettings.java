package io.qubiq.app.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;

@Doc("Who this gateway is.")
public record GatewaySettings(
        @Doc("A name for this gateway, shown in the console header, on /health and in logs.")
        @Default("Qubiq gateway")
        String name) {
}
