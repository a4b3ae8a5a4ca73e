package io.qubiq.config.edit;

/** An edit that cannot be made to the file as written; the file is unchanged. The message names the key path. */
public final class YamlEditException extends Exception {

    private final transient KeyPath path;

    public YamlEditException(KeyPath path, String message) {
        super(path + ": " + message);
        this.path = path;
    }

    public KeyPath path() {
        return path;
    }
}
