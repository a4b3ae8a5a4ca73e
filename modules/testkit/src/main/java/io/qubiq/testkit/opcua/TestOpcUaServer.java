package io.qubiq.testkit.opcua;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.identity.CompositeValidator;
import org.eclipse.milo.opcua.sdk.server.identity.UsernameIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.identity.X509IdentityValidator;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * A real OPC UA server, built on Milo's server SDK, for tests: it listens on 127.0.0.1 on a free
 * port chosen once, so {@link #stop()} and {@link #start()} bring it down and back on the same
 * endpoint (a connector's reconnect can be tested). Two endpoints on one URL: SecurityPolicy None
 * and Basic256Sha256 with SignAndEncrypt (a self-signed {@link #certificate()}, every client
 * certificate accepted); anonymous, username {@value #USERNAME}/{@value #PASSWORD}, or an X.509 user
 * certificate the test trusted with {@link #trustUserCertificate} (the token signed per Basic256Sha256,
 * also on the None endpoint). Its namespace ({@value TestNamespace#URI}) has a
 * {@code Plant} folder holding the {@link TestVariable}s.
 *
 * <p>Values survive a restart: the server is rebuilt on {@link #start()} from the values the test
 * set or clients wrote. A restarted server is a new process as far as clients can tell: its
 * sessions and subscriptions are gone, so clients must re-create them.
 *
 * <p>Thread-safe: {@link #setValue} may be called from any thread; start/stop are synchronized.
 */
public final class TestOpcUaServer implements AutoCloseable {

    public static final String USERNAME = "operator";
    public static final String PASSWORD = "s3cret";
    private static final String PATH = "/qubiq";

    private final int port;
    private final Map<String, DataValue> values = new ConcurrentHashMap<>();
    private final Set<java.security.cert.X509Certificate> trustedUsers = ConcurrentHashMap.newKeySet();
    private OpcUaServer server;
    private TestNamespace namespace;
    private int namespaceIndex = 2;

    private TestOpcUaServer(int port) {
        this.port = port;
    }

    /** A server on a free port, not yet started. */
    public static TestOpcUaServer onFreePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return new TestOpcUaServer(socket.getLocalPort());
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for the test OPC UA server", e);
        }
    }

    public synchronized TestOpcUaServer start() {
        if (server != null) {
            return this;
        }
        ServerCertificate certificate = ServerCertificate.get();
        EndpointConfig.Builder base = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("127.0.0.1")
                .setBindPort(port)
                .setHostname("127.0.0.1")
                .setPath(PATH)
                .setCertificate(certificate.certificate())
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS,
                        OpcUaServerConfig.USER_TOKEN_POLICY_USERNAME, OpcUaServerConfig.USER_TOKEN_POLICY_X509);
        EndpointConfig open = base.copy()
                .setSecurityPolicy(SecurityPolicy.None)
                .setSecurityMode(MessageSecurityMode.None)
                .build();
        EndpointConfig secured = base.copy()
                .setSecurityPolicy(SecurityPolicy.Basic256Sha256)
                .setSecurityMode(MessageSecurityMode.SignAndEncrypt)
                .build();
        var usernames = new UsernameIdentityValidator(
                challenge -> USERNAME.equals(challenge.getUsername()) && PASSWORD.equals(challenge.getPassword()));
        var userCertificates = new X509IdentityValidator(trustedUsers::contains);
        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri(ServerCertificate.APPLICATION_URI)
                .setProductUri("urn:qubiq:testkit")
                .setApplicationName(LocalizedText.english("Qubiq test OPC UA server"))
                .setEndpoints(Set.of(open, secured))
                .setCertificateManager(manager(certificate))
                .setIdentityValidator(new CompositeValidator(AnonymousIdentityValidator.INSTANCE, usernames,
                        userCertificates))
                .build();
        OpcUaServer created = new OpcUaServer(config,
                profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder().build()));
        TestNamespace ns = new TestNamespace(created, values);
        ns.startup();
        try {
            created.startup().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            ns.shutdown();
            throw new IllegalStateException("test OPC UA server did not start on port " + port, e);
        }
        namespaceIndex = ns.getNamespaceIndex().intValue();
        server = created;
        namespace = ns;
        return this;
    }

    private static org.eclipse.milo.opcua.stack.core.security.CertificateManager manager(ServerCertificate certificate) {
        try {
            return certificate.manager();
        } catch (Exception e) {
            throw new IllegalStateException("cannot set up the test server's certificates", e);
        }
    }

    /** The server's self-signed certificate, which a secured client must trust. */
    public java.security.cert.X509Certificate certificate() {
        return ServerCertificate.get().certificate();
    }

    /**
     * Accepts {@code certificate} as an X.509 user identity from now on (also across restarts); any
     * other user certificate is rejected with Bad_IdentityTokenRejected. Thread-safe.
     */
    public TestOpcUaServer trustUserCertificate(java.security.cert.X509Certificate certificate) {
        trustedUsers.add(certificate);
        return this;
    }

    /** Shuts the server down (clients see the connection drop); {@link #start()} brings it back. */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        try {
            namespace.shutdown();
            server.shutdown().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("test OPC UA server did not stop", e);
        } finally {
            server = null;
            namespace = null;
        }
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    public String endpointUrl() {
        return "opc.tcp://127.0.0.1:" + port + PATH;
    }

    public int port() {
        return port;
    }

    /** The node id of a variable as configuration writes it, such as {@code ns=2;s=Double}. */
    public String nodeId(TestVariable variable) {
        return "ns=" + namespaceIndex + ";s=" + variable.id();
    }

    /** The node id of the {@code Plant} folder that organizes every variable. */
    public String folderNodeId() {
        return "ns=" + namespaceIndex + ";s=" + TestNamespace.FOLDER;
    }

    /**
     * Sets a variable's value and status code (a 32-bit OPC UA code; 0 is Good), with source and
     * server timestamps of now. {@code value} is a Java value of the variable's type ({@link Instant}
     * is accepted for DateTime) or null.
     */
    public void setValue(TestVariable variable, Object value, long statusCode) {
        Object raw = value instanceof Instant instant ? new DateTime(instant) : value;
        DateTime now = DateTime.now();
        DataValue dataValue = new DataValue(raw == null ? Variant.NULL_VALUE : new Variant(raw),
                new StatusCode(statusCode), now, now);
        synchronized (this) {
            if (namespace != null) {
                namespace.set(variable.id(), dataValue);
            } else {
                values.put(variable.id(), dataValue);
            }
        }
    }

    /** As {@link #setValue(TestVariable, Object, long)} with the node id spelled as in configuration. */
    public void setValue(String nodeId, Object value, long statusCode) {
        setValue(variableOf(nodeId), value, statusCode);
    }

    public void setValue(TestVariable variable, Object value) {
        setValue(variable, value, 0L);
    }

    /** The variable's current value as a Java object (Milo's types: DateTime, UShort, ...). */
    public Object value(TestVariable variable) {
        DataValue current = values.get(variable.id());
        return current == null ? variable.initialValue().value().getValue() : current.value().getValue();
    }

    /** How many value writes clients made through OPC UA Write, across all test servers. */
    public static long clientWrites() {
        return ValueMirror.CLIENT_WRITES.get();
    }

    private TestVariable variableOf(String nodeId) {
        String id = nodeId.substring(nodeId.indexOf(";s=") + 3);
        for (TestVariable variable : TestVariable.values()) {
            if (variable.id().equals(id)) {
                return variable;
            }
        }
        throw new IllegalArgumentException("no test variable has node id " + nodeId);
    }

    @Override
    public void close() {
        stop();
    }
}
