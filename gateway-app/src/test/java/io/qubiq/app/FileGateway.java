package io.qubiq.app;

import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.runtime.DataDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * A gateway started from a configuration file ({@code gateway.yaml} in {@code dir}, the test's YAML with the
 * test operators' users in front) and its data directory beside it ({@code dir/data}): the set-up of every
 * test that changes the configuration through the API or the console, which writes that file.
 */
public final class FileGateway implements AutoCloseable {

    public final Path file;
    public final DataDirectory data;
    public final Gateway gateway;

    private FileGateway(Path file, DataDirectory data, Gateway gateway) {
        this.file = file;
        this.data = data;
        this.gateway = gateway;
    }

    /** Writes the file, opens the data directory and starts every component. */
    public static FileGateway start(Path dir, String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("gateway.yaml"), TestOperators.AUTH_YAML + yaml);
        DataDirectory data = DataDirectory.open(dir.resolve("data"));
        Gateway gateway = new Gateway(ConfigSource.loadFile(file, Map.of(), data.root()), data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        return new FileGateway(file, data, gateway);
    }

    public String base() {
        return "http://127.0.0.1:" + gateway.console().port();
    }

    @Override
    public void close() throws Exception {
        try {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        } finally {
            data.close();
        }
    }
}
