package io.qubiq.app.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;

@Doc("Start-up and shutdown.")
public record LifecycleConfig(
        @Doc("How long the components together may take to stop after SIGTERM or SIGINT. Past it the"
                + " process is halted with exit code 3 and what was still running is named in the log.")
        @Default("10000")
        @Range(min = 100, max = 600000)
        long shutdownGracePeriodMs,

        @Doc("Longest the gateway waits after start for a device connection that has neither connected and"
                + " subscribed nor failed its first attempt. Until every connection has done one or the other,"
                + " /health answers 503 STARTING; past this, a connection still not collecting is a degraded part"
                + " (NOT_SUBSCRIBED) and the gateway runs DEGRADED. 0 does not wait.")
        @Default("30000")
        @Range(min = 0, max = 600000)
        long readinessGraceMs) {
}
