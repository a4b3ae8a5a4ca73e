package io.qubiq.connector.mqtt;

/**
 * A message whose payload cannot become a tag value (not a number for a numeric tag, JSON without
 * the value path, a bad timestamp or quality, a topic level that is no tag path segment). The
 * connector counts it per topic and goes on; the message is not published.
 */
final class MalformedPayloadException extends Exception {

    MalformedPayloadException(String message) {
        super(message, null, false, false);
    }
}
