package io.qubiq.app.devices;

import io.qubiq.connector.opcua.CertificateEntry;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.connector.opcua.PkiDirectory;
import io.qubiq.console.DeviceAccess.Certificate;
import io.qubiq.console.DeviceAccess.Certificates;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server certificates of the OPC UA connections' PKI directories: lists them, and trusts a
 * rejected one on the operator's word, audited ({@code certificate_trust} on
 * {@code connection/<id>/certificate/<thumbprint>}). A connection that is not OPC UA, or uses
 * security policy none, has no certificates (CONFLICT, saying why); a directory that cannot be
 * opened is a FAULT naming the connection. The one class outside the kinds that knows the OPC UA
 * connector: certificates are that protocol's own business.
 *
 * <p>Threading: holds no state of its own; safe from any thread (the connector guards its directory).
 */
final class OpcUaCertificates {

    /** Logs under the device connections' name, as operators know it. */
    private static final Logger log = LoggerFactory.getLogger(DeviceConnections.class);

    private final Map<String, DeviceConnections.Entry> entries;
    private final EventPublisher events;
    private final Clock clock;

    OpcUaCertificates(Map<String, DeviceConnections.Entry> entries, EventPublisher events, Clock clock) {
        this.entries = entries;
        this.events = events;
        this.clock = clock;
    }

    Certificates certificates(String connectionId) {
        PkiDirectory directory = pkiDirectory(connectionId, certificateHolder(connectionId));
        return new Certificates(directory.root().toString(),
                directory.serverCertificates().stream().map(OpcUaCertificates::view).toList());
    }

    Certificate trust(String connectionId, String thumbprint, String user, String from) {
        OpcUaConnector connector = certificateHolder(connectionId);
        PkiDirectory directory = pkiDirectory(connectionId, connector);
        Optional<CertificateEntry> trusted;
        try {
            trusted = connector.trustServerCertificate(thumbprint);
        } catch (IllegalArgumentException e) {
            throw new RequestFailure.InvalidRequest(e.getMessage());
        } catch (IOException | GeneralSecurityException e) {
            throw unreadable(connectionId, e);
        }
        CertificateEntry entry = trusted.orElseThrow(() -> new RequestFailure.NotFound("connection '" + connectionId
                + "' has no server certificate with thumbprint " + thumbprint + " in " + directory.root().resolve("rejected")
                + " or trusted/certs; GET /api/v1/connections/" + connectionId + "/certificates lists them"));
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, from);
        details.put("thumbprint", entry.thumbprint());
        details.put("subject", entry.subject());
        events.audit(new AuditEvent(clock.instant(), user, AuditAction.CERTIFICATE_TRUST,
                "connection/" + connectionId + "/certificate/" + entry.thumbprint(), "trusted", details));
        return view(entry);
    }

    /** Whether connection {@code id} keeps a PKI directory the console can show (an OPC UA connection). */
    boolean keepsCertificates(String id) {
        DeviceConnections.Entry entry = entries.get(id);
        return entry != null && entry.connector() instanceof OpcUaConnector;
    }

    /** The connection's OPC UA connector, or the API error that says why it has no certificates. */
    private OpcUaConnector certificateHolder(String connectionId) {
        DeviceConnections.Entry entry = entries.get(connectionId);
        if (entry == null) {
            throw new RequestFailure.NotFound("no device connection '" + connectionId + "'");
        }
        if (!(entry.connector() instanceof OpcUaConnector opcua)) {
            throw new RequestFailure.Conflict("device connection '" + connectionId + "' (" + entry.type() + ") keeps no"
                    + " certificates: only OPC UA connections have a PKI directory");
        }
        return opcua;
    }

    private static PkiDirectory pkiDirectory(String connectionId, OpcUaConnector connector) {
        try {
            return connector.certificateDirectory().orElseThrow(() -> new RequestFailure.Conflict("device connection '"
                    + connectionId + "' uses security_policy none: no certificates are exchanged; set a security"
                    + " policy such as basic256sha256 to use them"));
        } catch (IOException | GeneralSecurityException e) {
            throw unreadable(connectionId, e);
        }
    }

    private static RequestFailure unreadable(String connectionId, Exception e) {
        log.warn("Device connection {}: its PKI directory cannot be opened: {}", connectionId, e.toString());
        return new RequestFailure.Fault("the PKI directory of connection '" + connectionId + "' cannot be opened: " + e);
    }

    private static Certificate view(CertificateEntry entry) {
        return new Certificate(entry.thumbprint(), entry.subject(), entry.issuer(), entry.notBefore(), entry.notAfter(),
                entry.folder().name().toLowerCase(Locale.ROOT));
    }
}
