package io.qubiq.demoplant;

import io.qubiq.core.error.ConfigurationException;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plant's OPC UA server (Eclipse Milo): one endpoint, {@code opc.tcp://127.0.0.1:<port>/demo-plant},
 * SecurityPolicy None with anonymous access, serving the {@link PlantNamespace}. A new Milo server
 * is built at every {@link #start}, so the plant can be stopped and started again on the same port.
 *
 * <p>Threading: start and stop are called by {@link SimulatedPlant} under its lock; {@link #show}
 * by its tick thread; Milo's threads serve clients and apply their writes to the (thread-safe) model.
 */
final class PlantOpcUaServer {

    private static final Logger LOG = LoggerFactory.getLogger(PlantOpcUaServer.class);
    static final String PATH = "/demo-plant";
    private static final long STOP_TIMEOUT_S = 5;

    private final PlantModel model;
    private final int port;
    private OpcUaServer server;
    private volatile PlantNamespace namespace;

    /** A server for {@code model} on {@code port} (not 0: the plant picks free ports itself). */
    PlantOpcUaServer(PlantModel model, int port) {
        this.model = model;
        this.port = port;
    }

    String endpointUrl() {
        return "opc.tcp://" + LoopbackPorts.HOST + ":" + port + PATH;
    }

    /** @throws ConfigurationException (key {@code opcua_port}) when the port is taken */
    void start() throws ConfigurationException {
        // Milo reports a taken port only as Bad_InternalError; find out first, to say what to do.
        if (!LoopbackPorts.free(port)) {
            throw portTaken(null);
        }
        OpcUaServer created = new OpcUaServer(serverConfig(),
                profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder().build()));
        PlantNamespace ns = new PlantNamespace(created, model);
        ns.startup();
        try {
            created.startup().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            ns.shutdown();
            shutDown(created);
            if (!LoopbackPorts.free(port)) {
                throw portTaken(e); // taken between the check and the bind
            }
            throw new IllegalStateException("the demo plant's OPC UA server did not start on port " + port, e);
        }
        int index = ns.getNamespaceIndex().intValue();
        if (index != PlantVariable.NAMESPACE_INDEX) {
            ns.shutdown();
            shutDown(created);
            throw new IllegalStateException("the demo plant's namespace got index " + index + ", not "
                    + PlantVariable.NAMESPACE_INDEX + " as its node ids say (a bug)");
        }
        server = created;
        namespace = ns;
        LOG.info("Demo plant: OPC UA server listening on {} (SecurityPolicy None, anonymous)", endpointUrl());
    }

    /** Shows {@code state} on every variable; does nothing while stopped. */
    void show(PlantState state, Instant time) {
        PlantNamespace current = namespace;
        if (current != null) {
            current.show(state, time, time);
        }
    }

    /** Stops the server and waits (bounded) until its port can be bound again. */
    void stop() {
        if (server == null) {
            return;
        }
        namespace.shutdown();
        namespace = null;
        shutDown(server);
        server = null;
        if (!LoopbackPorts.awaitReleased(port, STOP_TIMEOUT_S)) {
            LOG.warn("Demo plant: port {} is still in use {} s after the OPC UA server stopped", port, STOP_TIMEOUT_S);
        }
        LOG.info("Demo plant: OPC UA server on port {} stopped", port);
    }

    private OpcUaServerConfig serverConfig() {
        EndpointConfig endpoint = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress(LoopbackPorts.HOST)
                .setBindPort(port)
                .setHostname(LoopbackPorts.HOST)
                .setPath(PATH)
                .setSecurityPolicy(SecurityPolicy.None)
                .setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS)
                .build();
        return OpcUaServerConfig.builder()
                .setApplicationUri("urn:qubiq:demo-plant:server")
                .setProductUri("urn:qubiq:demo-plant")
                .setApplicationName(LocalizedText.english("Qubiq demo plant"))
                .setEndpoints(Set.of(endpoint))
                .setCertificateManager(new DefaultCertificateManager(new MemoryCertificateQuarantine()))
                .setIdentityValidator(AnonymousIdentityValidator.INSTANCE)
                .build();
    }

    private void shutDown(OpcUaServer target) {
        try {
            target.shutdown().get(STOP_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("Demo plant: the OPC UA server on port {} did not shut down cleanly: {}", port, e.toString());
        }
    }

    private ConfigurationException portTaken(Exception cause) {
        return new ConfigurationException("opcua_port", "port " + port + " on " + LoopbackPorts.HOST + " is in use;"
                + " stop what listens there or set opcua_port to another port (0 picks a free one)", cause);
    }
}
