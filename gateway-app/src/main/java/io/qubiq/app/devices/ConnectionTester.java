package io.qubiq.app.devices;

import io.qubiq.app.config.DeviceConfig;
import io.qubiq.app.connectiontest.BoundedProbe;
import io.qubiq.app.connectiontest.SettingsProbe;
import io.qubiq.config.ConfigLoader;
import io.qubiq.console.ConnectionTests;
import io.qubiq.core.connector.DeviceKind;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * "Test connection" over the device kinds ({@code POST /api/v1/connections/test}). What is the device
 * connections' own: the settings are the entry {@code devices.<id>} of a {@link TestedSection}, and the
 * connection's kind probes them with a client of its own ({@link DeviceKinds#probe}), on a thread named
 * {@code connection-test}. A kind answers every failure of the server or the network in its result, so a
 * probe that throws is a fault. The binding, the masked secrets and the timeout are {@link SettingsProbe}'s.
 *
 * <p>Thread-safe, as {@link SettingsProbe}.
 */
public final class ConnectionTester implements ConnectionTests {

    private final SettingsProbe<DeviceConfig> tests;

    /**
     * @param running     the device connections as they run now
     * @param environment the variables {@code ${VARIABLE}} references in the settings expand from
     * @param context     what the kinds build their probing clients with (the running gateway's)
     */
    public ConnectionTester(Supplier<Map<String, DeviceConfig>> running, Supplier<Map<String, String>> environment,
                            DeviceKind.Context context, Duration timeout) {
        this.tests = new SettingsProbe<>(new SettingsProbe.Family<DeviceConfig>("devices", "device connection",
                (file, text, env) -> ConfigLoader.parse(file, text, TestedSection.class, env).devices(),
                config -> DeviceKinds.of(config).name(),
                (id, config, limit) -> DeviceKinds.probe(id, config, context, limit)),
                running, environment, new BoundedProbe("connection-test", timeout));
    }

    @Override
    public Outcome test(Optional<String> id, Optional<Object> section) {
        return tests.test(id, section);
    }
}
