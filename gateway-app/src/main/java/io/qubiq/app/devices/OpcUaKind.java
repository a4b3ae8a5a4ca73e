package io.qubiq.app.devices;

import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.DeviceConfig;
import io.qubiq.config.secret.SecretStore;
import io.qubiq.connector.opcua.KeyStorePassword;
import io.qubiq.connector.opcua.OpcUaConnectionConfig;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.connector.opcua.OpcUaProbe;
import io.qubiq.connector.opcua.OpcUaTagConfig;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.connector.ProbeResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * OPC UA connections: {@code devices.<id>.opcua:}, read by the connector of {@code io.qubiq.connector.opcua}.
 * Every tag is declared in the configuration, so the connection owns all of them. Its PKI directory
 * ({@code pki_dir}, default {@code pki/<id>}) resolves against the data directory when relative; its key
 * store's password is the installation's, {@value SecretStore#OPCUA_PKI_KEYSTORE} in the secrets store.
 */
final class OpcUaKind implements DeviceKind<DeviceConfig.OpcUa> {

    @Override
    public Class<DeviceConfig.OpcUa> configType() {
        return DeviceConfig.OpcUa.class;
    }

    @Override
    public String title() {
        return "OPC UA";
    }

    @Override
    public DeviceConnector connector(String id, DeviceConfig.OpcUa config, Context context) {
        return new OpcUaConnector(id, withPkiInDataDir(config.opcua(), id, context.dataDir()), context.clock(),
                context.events(), keyStorePassword(context.dataDir()));
    }

    /** Probed with the PKI directory the connection uses (or will use, once saved under this id). */
    @Override
    public ProbeResult probe(String id, DeviceConfig.OpcUa config, Context context, Duration timeout) {
        return OpcUaProbe.probe(id, withPkiInDataDir(config.opcua(), id, context.dataDir()), timeout,
                keyStorePassword(context.dataDir()));
    }

    @Override
    public List<String> declaredTags(DeviceConfig.OpcUa config) {
        return config.opcua().tags().stream().map(OpcUaTagConfig::pathText).toList();
    }

    @Override
    public TagEstimate tagEstimate(DeviceConfig.OpcUa config) {
        return new TagEstimate(config.opcua().tags().size(), 0);
    }

    @Override
    public String docs() {
        return "docs/connectors/opcua.md";
    }

    /** The installation's key store password, generated into the secrets store when a PKI is first opened. */
    private static KeyStorePassword keyStorePassword(Path dataDir) {
        return () -> ConfigSource.generatedSecret(dataDir, SecretStore.OPCUA_PKI_KEYSTORE).toCharArray();
    }

    private static OpcUaConnectionConfig withPkiInDataDir(OpcUaConnectionConfig opcua, String id, Path dataDir) {
        Path pki = opcua.pkiDir().orElse(Path.of("pki", id));
        return opcua.withPkiDir(pki.isAbsolute() ? pki : dataDir.resolve(pki));
    }
}
