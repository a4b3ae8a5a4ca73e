package io.qubiq.app.devices;

import io.qubiq.app.config.DeviceConfig;
import io.qubiq.core.config.Doc;
import java.util.Map;

/**
 * The root a "Test connection" body is bound to: one entry under {@code devices}, so the settings are
 * checked by the same loader and rules as the configuration file and every problem names the key
 * path the file would ({@code devices.<id>.opcua.endpoint_url}). Immutable.
 */
@Doc("Device connection settings to be tested.")
public record TestedSection(
        @Doc("The connection to test, under its id.")
        Map<String, DeviceConfig> devices) {
}
