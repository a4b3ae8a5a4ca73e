package io.qubiq.console;

import io.qubiq.core.connector.BrowseNode;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.tag.TagPath;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the console may do with device connections. The application implements it over its
 * connectors; the console never sees a concrete connector class.
 */
public interface DeviceAccess {

    /** A device connection as the console shows it. */
    record Device(String id, String type, ConnectionStatus status, Map<String, Long> counters, int tags,
                  boolean browsable, boolean certificates, List<String> warnings) {
    }

    /**
     * A server certificate in a connection's PKI directory.
     *
     * @param thumbprint SHA-1 of the certificate, 40 lower-case hex digits
     * @param folder     {@code rejected} (failed validation, waiting for the operator) or {@code trusted}
     */
    record Certificate(String thumbprint, String subject, String issuer, Instant notBefore, Instant notAfter,
                       String folder) {
    }

    /** A connection's PKI directory and the server certificates in its rejected and trusted folders. */
    record Certificates(String directory, List<Certificate> certificates) {
    }

    List<Device> devices();

    Optional<Device> device(String id);

    /**
     * Browses one level of a device's address space.
     *
     * @throws RequestFailure.NotFound for an unknown connection
     * @throws RequestFailure.InvalidRequest for a connection that cannot be browsed
     */
    CompletableFuture<List<BrowseNode>> browse(String connectionId, String nodeId);

    /**
     * Writes a value straight to the device that owns {@code tag} (never buffered) and records the
     * action in the audit journal as {@code user}.
     *
     * @throws RequestFailure.NotFound for a tag no connection owns
     */
    CompletableFuture<TagWriteResult> write(TagPath tag, Object value, String user, String from);

    /**
     * The rejected and trusted server certificates of a connection.
     *
     * @throws RequestFailure.NotFound for an unknown connection
     * @throws RequestFailure.Conflict for one that keeps no certificates (not OPC UA, or SecurityPolicy None)
     * @throws RequestFailure.Fault when its PKI directory cannot be opened
     */
    Certificates certificates(String connectionId);

    /**
     * Trusts a rejected server certificate: it moves to the trusted folder, the connection uses it
     * from its next attempt (which starts at once), and the action is journaled as {@code user}.
     * A certificate that is trusted already is answered as it is.
     *
     * @throws RequestFailure.NotFound for an unknown connection or thumbprint
     * @throws RequestFailure.Conflict for a connection that keeps no certificates
     * @throws RequestFailure.InvalidRequest for a thumbprint that is not 40 hex digits
     * @throws RequestFailure.Fault when its PKI directory cannot be opened
     */
    Certificate trust(String connectionId, String thumbprint, String user, String from);
}
