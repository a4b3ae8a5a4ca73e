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
        long shutdownGracePeriodMs) {
}
