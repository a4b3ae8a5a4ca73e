package io.qubiq.app.config;

import io.qubiq.config.ConfigException;
import io.qubiq.config.SecretLookup;

/**
 * The configuration file as a change sees it: its text read now ({@link OnDisk}), and any text bound
 * as the running file was (the same source, environment, command-line overrides and secrets store), so a
 * change is validated as a start of the gateway would validate it. Reads {@link ConfigState} at each
 * call and keeps nothing; used under the configuration writer's lock.
 */
final class ConfigFile {

    private final ConfigState state;

    ConfigFile(ConfigState state) {
        this.state = state;
    }

    /**
     * The file's text and token now.
     *
     * @throws io.qubiq.console.RequestFailure.Fault it cannot be read
     */
    OnDisk read() {
        return OnDisk.read(state.read().file().file().orElseThrow());
    }

    /** The configuration the file holds now, as the gateway would run it. */
    LoadedConfig before(OnDisk disk) {
        LoadedConfig known = state.read().file();
        if (known.revision().equals(disk.revision())) {
            return known;
        }
        try {
            return known.successor(bind(disk.text()));
        } catch (ConfigException e) {
            return known; // a broken hand edit: compare with the last valid file
        }
    }

    /** {@code text} bound as the running file is, its secret references resolved in the secrets store. */
    LoadedConfig bind(String text) throws ConfigException {
        return bind(text, state.read().file().secrets());
    }

    /** {@code text} bound as the running file is, its secret references resolved in {@code secrets}. */
    LoadedConfig bind(String text, SecretLookup secrets) throws ConfigException {
        LoadedConfig known = state.read().file();
        return LoadedConfig.bind(known.source(), "sha256", text, known.environment(), known.secrets(), secrets);
    }
}
