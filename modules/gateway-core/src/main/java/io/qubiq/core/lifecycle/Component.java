package io.qubiq.core.lifecycle;

/**
 * A part of the running gateway with a start and a stop (the tag bus, the HTTP server, a
 * connector). The application starts components in dependency order and stops them in reverse.
 * {@link #start} returns once the component is ready to serve; {@link #stop} releases everything
 * and should finish within the shutdown grace period, honouring interruption.
 */
public interface Component {

    /** A short stable name shown on /health and in logs, such as {@code tag-bus}. */
    String name();

    void start() throws Exception;

    void stop() throws Exception;
}
