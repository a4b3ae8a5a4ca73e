package io.qubiq.app.config;

import io.qubiq.console.HttpConfig;
import io.qubiq.core.config.Doc;

/**
 * The root of the gateway's configuration file. Each section is declared by the module that owns
 * it; this record only composes them. docs/configuration.md is generated from this tree.
 */
@Doc("The gateway configuration file.")
public record GatewayConfig(
        @Doc("Who this gateway is.")
        GatewaySettings gateway,

        @Doc("The HTTP server for the console, the API, /health and /metrics.")
        HttpConfig http,

        @Doc("Start-up and shutdown.")
        LifecycleConfig lifecycle,

        @Doc("Log output: the console and a rolling file in <data-dir>/logs/.")
        LoggingConfig logging) {
}
