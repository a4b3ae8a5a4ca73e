package io.qubiq.connector.opcua;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.nio.file.Path;
import java.util.Optional;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The settings of one OPC UA device connection; see docs/connectors/opcua.md. */
@Doc("An OPC UA device connection: the server, its security, and the tags read from it.")
public record OpcUaConnectionConfig(
        @Doc("The server's endpoint URL, such as opc.tcp://plc1.plant:4840.")
        String endpointUrl,

        @Doc("The security policy the endpoint must offer: none, basic256sha256, aes128_sha256_rsaoaep or"
                + " aes256_sha256_rsapss.")
        @Default("none")
        SecurityPolicyName securityPolicy,

        @Doc("The message security mode: none (only with security_policy none), sign or sign_and_encrypt.")
        @Default("none")
        SecurityModeName securityMode,

        @Doc("The user identity of the session.")
        @Default("{type: anonymous}")
        OpcUaIdentity identity,

        @Doc("Directory of the connector's certificates: own/ (generated on first start for secured"
                + " policies), trusted/, issuers/ and rejected/ (untrusted server certificates land here)."
                + " Default <data-dir>/pki/<connection id>; a relative path is taken relative to the data directory.")
        Optional<Path> pkiDir,

        @Doc("How long one request (read, write, browse, subscription call) may take.")
        @Default("5000")
        @Range(min = 100, max = 600000)
        long requestTimeoutMs,

        @Doc("Session timeout the connector asks the server for; subscriptions survive outages shorter than"
                + " this and are transferred to the new session.")
        @Default("60000")
        @Range(min = 1000, max = 3600000)
        long sessionTimeoutMs,

        @Doc("First wait before retrying a failed connection attempt; doubles per failure.")
        @Default("1000")
        @Range(min = 10, max = 600000)
        long reconnectInitialMs,

        @Doc("Longest wait between connection attempts.")
        @Default("30000")
        @Range(min = 10, max = 3600000)
        long reconnectMaxMs,

        @Doc("A tag whose value stops changing while the server still calls it Good is republished as"
                + " UncertainLastUsableValue after this long. 0 disables stale detection.")
        @Default("0")
        @Range(min = 0, max = 86400000)
        long staleAfterMs,

        @Doc("How values are acquired: subscription (the server reports changes) or polling (periodic reads).")
        @Default("subscription")
        AcquisitionMode mode,

        @Doc("Interval between reads in polling mode.")
        @Default("1000")
        @Range(min = 10, max = 3600000)
        long pollingIntervalMs,

        @Doc("Publishing interval of the subscriptions (subscription mode).")
        @Default("500")
        @Range(min = 10, max = 3600000)
        long publishingIntervalMs,

        @Doc("Most monitored items in one subscription; more tags are spread over further subscriptions.")
        @Default("1000")
        @Range(min = 1, max = 100000)
        int maxItemsPerSubscription,

        @Doc("How tags are sampled unless a tag sets its own value: sampling_interval_ms (default 100),"
                + " queue_size (default: two publishing intervals or one second of samples), deadband_absolute, deadband_percent.")
        OpcUaTagDefaults tagDefaults,

        @Doc("The tags read from this server: each a mapping, or just a node id (its path derived from the"
                + " node id).")
        List<OpcUaTagConfig> tags) implements ConfigChecked {

    public OpcUaConnectionConfig {
        tags = List.copyOf(tags);
    }

    /** A connection with defaults for everything but the endpoint and the tags; for code and tests. */
    public static OpcUaConnectionConfig of(String endpointUrl, List<OpcUaTagConfig> tags) {
        return new OpcUaConnectionConfig(endpointUrl, SecurityPolicyName.NONE, SecurityModeName.NONE,
                new OpcUaIdentity.Anonymous(), Optional.empty(), 5000, 60000, 1000, 30000, 0,
                AcquisitionMode.SUBSCRIPTION, 1000, 500, 1000, OpcUaTagDefaults.STANDARD, tags);
    }

    /** The same connection with its PKI directory set (the application resolves it in the data directory). */
    public OpcUaConnectionConfig withPkiDir(Path value) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, identity, Optional.of(value),
                requestTimeoutMs, sessionTimeoutMs, reconnectInitialMs, reconnectMaxMs, staleAfterMs, mode,
                pollingIntervalMs, publishingIntervalMs, maxItemsPerSubscription, tagDefaults, tags);
    }

    public OpcUaConnectionConfig withIdentity(OpcUaIdentity value) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, value, pkiDir, requestTimeoutMs,
                sessionTimeoutMs, reconnectInitialMs, reconnectMaxMs, staleAfterMs, mode, pollingIntervalMs,
                publishingIntervalMs, maxItemsPerSubscription, tagDefaults, tags);
    }

    public OpcUaConnectionConfig withStaleAfterMs(long value) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, identity, pkiDir, requestTimeoutMs,
                sessionTimeoutMs, reconnectInitialMs, reconnectMaxMs, value, mode, pollingIntervalMs,
                publishingIntervalMs, maxItemsPerSubscription, tagDefaults, tags);
    }

    public OpcUaConnectionConfig withPolling(long intervalMs) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, identity, pkiDir, requestTimeoutMs,
                sessionTimeoutMs, reconnectInitialMs, reconnectMaxMs, staleAfterMs, AcquisitionMode.POLLING, intervalMs,
                publishingIntervalMs, maxItemsPerSubscription, tagDefaults, tags);
    }

    public OpcUaConnectionConfig withPublishingIntervalMs(long value) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, identity, pkiDir, requestTimeoutMs,
                sessionTimeoutMs, reconnectInitialMs, reconnectMaxMs, staleAfterMs, mode, pollingIntervalMs, value,
                maxItemsPerSubscription, tagDefaults, tags);
    }

    public OpcUaConnectionConfig withReconnect(long initialMs, long maxMs) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, identity, pkiDir, requestTimeoutMs,
                sessionTimeoutMs, initialMs, maxMs, staleAfterMs, mode, pollingIntervalMs, publishingIntervalMs,
                maxItemsPerSubscription, tagDefaults, tags);
    }

    public OpcUaConnectionConfig withRequestTimeoutMs(long value) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, identity, pkiDir, value,
                sessionTimeoutMs, reconnectInitialMs, reconnectMaxMs, staleAfterMs, mode, pollingIntervalMs,
                publishingIntervalMs, maxItemsPerSubscription, tagDefaults, tags);
    }

    public OpcUaConnectionConfig withMaxItemsPerSubscription(int value) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, identity, pkiDir, requestTimeoutMs,
                sessionTimeoutMs, reconnectInitialMs, reconnectMaxMs, staleAfterMs, mode, pollingIntervalMs,
                publishingIntervalMs, value, tagDefaults, tags);
    }

    public OpcUaConnectionConfig withTagDefaults(OpcUaTagDefaults value) {
        return new OpcUaConnectionConfig(endpointUrl, securityPolicy, securityMode, identity, pkiDir, requestTimeoutMs,
                sessionTimeoutMs, reconnectInitialMs, reconnectMaxMs, staleAfterMs, mode, pollingIntervalMs,
                publishingIntervalMs, maxItemsPerSubscription, value, tags);
    }

    /** What the connector asks the server for this tag's monitored item. */
    MonitoringRequest monitoring(OpcUaTagConfig tag) {
        return MonitoringRequest.of(tag, tagDefaults, publishingIntervalMs);
    }

    public boolean secured() {
        return securityPolicy != SecurityPolicyName.NONE;
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (!endpointUrl.startsWith("opc.tcp://")) {
            violations.add(new Violation("endpoint_url", "must start with opc.tcp:// (the only transport supported),"
                    + " was \"" + endpointUrl + "\""));
        }
        if ((securityPolicy == SecurityPolicyName.NONE) != (securityMode == SecurityModeName.NONE)) {
            violations.add(new Violation("security_mode", "security_policy none goes with security_mode none, and"
                    + " only with it (policy " + securityPolicy.name().toLowerCase() + ", mode "
                    + securityMode.name().toLowerCase() + ")"));
        }
        if (reconnectMaxMs < reconnectInitialMs) {
            violations.add(new Violation("reconnect_max_ms", "must be at least reconnect_initial_ms ("
                    + reconnectInitialMs + "), was " + reconnectMaxMs));
        }
        if (identity instanceof OpcUaIdentity.X509 x509) {
            UserCertificate.problem(x509).ifPresent(violations::add);
        }
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < tags.size(); i++) {
            String path = tags.get(i).pathText();
            Integer first = seen.putIfAbsent(path, i);
            if (first != null) {
                violations.add(new Violation("tags[" + i + "].path", "\"" + path + "\" is already used by tags["
                        + first + "]" + (tags.get(i).path().isEmpty() ? " (derived from node_id \""
                        + tags.get(i).nodeId() + "\"; write path: to choose another)" : "")));
            }
        }
        return violations;
    }
}
