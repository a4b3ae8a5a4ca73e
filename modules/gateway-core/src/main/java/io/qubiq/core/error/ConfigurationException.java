package io.qubiq.core.error;

/**
 * A component cannot work as configured (an unknown table, a bad URL, a missing certificate). The
 * component stops and reports; retrying will not help until an operator fixes {@link #key()}.
 */
public final class ConfigurationException extends GatewayException {

    private final String key;

    public ConfigurationException(String key, String message, Throwable cause) {
        super(key + ": " + message, cause);
        this.key = key;
    }

    public ConfigurationException(String key, String message) {
        this(key, message, null);
    }

    /** The configuration key path at fault, such as {@code connections.plc1.endpoint_url}. */
    public String key() {
        return key;
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.CONFIGURATION;
    }
}
