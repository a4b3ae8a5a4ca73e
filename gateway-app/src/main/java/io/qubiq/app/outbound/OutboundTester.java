package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.app.connectiontest.BoundedProbe;
import io.qubiq.app.connectiontest.SettingsProbe;
import io.qubiq.config.ConfigLoader;
import io.qubiq.console.ConnectionTests;
import io.qubiq.core.connector.ProbeResult;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * "Test connection" for outbound connections ({@code POST /api/v1/outbound/test}). What is the outbound
 * connections' own: the settings are the entry {@code outbound.<id>} of a {@link TestedOutbound}, and a sink
 * built by the connection's kind answers its own probe ({@link Sink#probe}: the same check the connection
 * monitor runs) and is closed, on a thread named {@code outbound-test}. A sink that cannot be built, or that
 * throws, is answered as unreachable with its message. The binding, the masked secrets and the timeout are
 * {@link SettingsProbe}'s.
 *
 * <p>Thread-safe, as {@link SettingsProbe}.
 */
public final class OutboundTester implements ConnectionTests {

    private final Clock clock;
    private final SettingsProbe<OutboundConfig> tests;

    /**
     * @param running     the outbound connections as they run now
     * @param environment the variables {@code ${VARIABLE}} references in the settings expand from
     */
    public OutboundTester(Supplier<Map<String, OutboundConfig>> running, Supplier<Map<String, String>> environment,
                          Duration timeout, Clock clock) {
        this.clock = clock;
        this.tests = new SettingsProbe<>(new SettingsProbe.Family<OutboundConfig>("outbound", "outbound connection",
                (file, text, env) -> ConfigLoader.parse(file, text, TestedOutbound.class, env).outbound(),
                config -> OutboundKinds.of(config).name(), this::probe),
                running, environment, new BoundedProbe("outbound-test", timeout));
    }

    @Override
    public Outcome test(Optional<String> id, Optional<Object> section) {
        return tests.test(id, section);
    }

    /** Builds the sink, probes it, closes it; the latency is that of the three. */
    private ProbeResult probe(String id, OutboundConfig config, Duration timeout) {
        long started = System.nanoTime();
        try {
            Sink<?> sink = OutboundConnections.sinkOf(OutboundKinds.of(config), id, config, clock);
            ConnectionStatus status;
            try {
                status = sink.probe();
            } finally {
                sink.close();
            }
            long latency = (System.nanoTime() - started) / 1_000_000;
            return status.state() == ConnectionState.UP
                    ? ProbeResult.ok(ProbeResult.CertificateTrust.UNKNOWN, latency, "the destination answered")
                    : ProbeResult.unreachable(status.lastError().orElse("the destination did not answer"));
        } catch (Exception e) {
            return ProbeResult.unreachable(String.valueOf(e.getMessage()));
        }
    }
}
