package io.qubiq.console;

import io.qubiq.core.connector.ProbeResult;
import java.util.List;
import java.util.Optional;

/**
 * "Test connection": probes a device connection's settings now, without adding, changing or
 * restarting anything. The application implements it over its device kinds (each kind probes with
 * its own connector code); the console never sees a driver. Implementations bound every test by a
 * timeout and are safe to call from request threads concurrently.
 */
public interface ConnectionTests {

    /** What a test answers: the probe's findings, or why the settings could not be tested. */
    sealed interface Outcome permits Tested, Invalid {
    }

    /**
     * The probe's findings, as the API writes them.
     *
     * @param id            the connection id the settings were tested under (a new one: as given, or {@code test})
     * @param kind          the section key of the connection's kind: {@code opcua}, {@code mqtt}
     * @param ok            every step succeeded
     * @param reachable     the server answered on the network
     * @param authenticated the session was accepted with the configured identity; null when not tried
     * @param certificate   {@code not_used}, {@code trusted}, {@code untrusted}, {@code not_verified} or
     *                      {@code unknown}: the server certificate's state as the probe saw it
     * @param latencyMs     milliseconds of the server's answer; null when unreachable
     * @param message       what succeeded, or the step that failed and what to do
     */
    record Tested(String id, String kind, boolean ok, boolean reachable, @MayBeNull Boolean authenticated,
                  String certificate, @MayBeNull Long latencyMs, String message) implements Outcome {

        public static Tested of(String id, String kind, ProbeResult result) {
            return new Tested(id, kind, result.ok(), result.reachable(), result.authenticated().orElse(null),
                    result.certificate().name().toLowerCase(), result.latencyMs().orElse(null), result.message());
        }
    }

    /**
     * Settings that are not a valid connection section: every problem with its key path as the
     * configuration file names it ({@code devices.<id>.opcua.endpoint_url}); nothing was probed.
     */
    record Invalid(String error, List<ConfigAccess.Problem> problems) implements Outcome {
    }

    /**
     * Tests a connection.
     *
     * @param id      a connection id; alone, the running connection of that id is tested with its
     *                configuration as it runs
     * @param section the settings to test, shaped as the configuration value at {@code devices.<id>}
     *                ({@code {"opcua": {...}}}); a masked secret ({@code ***}) in it is the running
     *                connection {@code id}'s secret
     * @throws RequestFailure.NotFound when only an id is given and no connection has it
     * @throws RequestFailure.InvalidRequest when neither is given
     */
    Outcome test(Optional<String> id, Optional<Object> section);
}
