package io.qubiq.demoplant;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.lifecycle.Component;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
 * The demo's plant: a {@link PlantModel} stepped every {@code tick_ms} and served by an OPC UA
 * server (Eclipse Milo) on 127.0.0.1, so {@code qubiq demo} has a live device to read. One
 * endpoint, {@code opc.tcp://127.0.0.1:<port>/demo-plant}, SecurityPolicy None with anonymous
 * access: it is for a demo on the local machine and has no certificates. {@link #nodes()} lists
 * its variables for whoever builds the OPC UA connection that reads them.
 *
 * <p>Each tick the model steps and every variable gets the new value with the tick's time as
 * source timestamp. Client writes of the level setpoint and pump permission change the process
 * from the next tick; writes of other variables are refused by the server (Bad_NotWritable).
 *
 * <p>{@link #start} fails with a {@link ConfigurationException} when the port is taken. {@link
 * #stop} closes the listening socket before it returns, so the port can be bound again at once;
 * {@link #start} after {@link #stop} serves again on the same port, with the model where it was.
 *
 * <p>Threading: start and stop are synchronized. One daemon thread ({@code qubiq-demo-plant})
 * steps the model; Milo's threads serve clients and apply their writes to the (thread-safe) model.
 * A write that lands while a tick is being shown can be overwritten on the node by that tick's
 * older setpoint; the next tick shows the written value again.
 */
public final class SimulatedPlant implements Component {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatedPlant.class);
    private static final String HOST = "127.0.0.1";
    private static final String PATH = "/demo-plant";
    private static final long STOP_TIMEOUT_S = 5;

    private final DemoPlantConfig config;
    private final Clock clock;
    private final PlantModel model;
    private int port;
    private OpcUaServer server;
    private PlantNamespace namespace;
    private ScheduledExecutorService ticker;

    public SimulatedPlant(DemoPlantConfig config) {
        this(config, Clock.systemUTC());
    }

    /** A plant whose source timestamps come from {@code clock}. */
    public SimulatedPlant(DemoPlantConfig config, Clock clock) {
        this(config, clock, new PlantModel(config.seed(), config.tick()));
    }

    /**
     * A plant stepping {@code model} every {@code tick_ms}; a model whose own tick is longer runs
     * the process faster than real time (tests).
     */
    SimulatedPlant(DemoPlantConfig config, Clock clock, PlantModel model) {
        this.config = config;
        this.clock = clock;
        this.model = model;
        this.port = config.opcuaPort();
    }

    /** The plant's variables: node id, suggested tag path, types, whether writable, unit and meaning. */
    public static List<NodeInfo> nodes() {
        return Arrays.stream(PlantVariable.values()).map(PlantVariable::info).toList();
    }

    /** The namespace URI of the plant's variables ({@code ns=2} in {@link #nodes()}). */
    public static String namespaceUri() {
        return PlantNamespace.URI;
    }

    @Override
    public String name() {
        return "demo-plant";
    }

    @Override
    public synchronized void start() throws ConfigurationException {
        if (server != null) {
            return;
        }
        if (port == 0) {
            port = freePort();
        }
        // Milo reports a taken port only as Bad_InternalError; find out first, to say what to do.
        if (!portFree(port)) {
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
            if (!portFree(port)) {
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
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "qubiq-demo-plant");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::tick, config.tickMs(), config.tickMs(), TimeUnit.MILLISECONDS);
        LOG.info("Demo plant: OPC UA server listening on {} (SecurityPolicy None, anonymous)", endpointUrl());
    }

    @Override
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(STOP_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        namespace.shutdown();
        shutDown(server);
        server = null;
        namespace = null;
        ticker = null;
        awaitPortReleased();
        LOG.info("Demo plant: OPC UA server on port {} stopped", port);
    }

    /** Milo may close its listening socket just after its shutdown completes; wait (bounded) for that. */
    private void awaitPortReleased() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_S);
        while (!portFree(port)) {
            if (System.nanoTime() > deadline) {
                LOG.warn("Demo plant: port {} is still in use {} s after the server stopped", port, STOP_TIMEOUT_S);
                return;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The endpoint URL clients connect to, such as {@code opc.tcp://127.0.0.1:4840/demo-plant}.
     *
     * @throws IllegalStateException when the port is 0 and the plant never started, so it is not chosen yet
     */
    public synchronized String endpointUrl() {
        if (port == 0) {
            throw new IllegalStateException("the demo plant picks its port when it starts; start it first");
        }
        return "opc.tcp://" + HOST + ":" + port + PATH;
    }

    /** The plant as its instruments show it after the latest tick. */
    public PlantState state() {
        return model.state();
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    private void tick() {
        try {
            PlantState state = model.step();
            Instant now = clock.instant();
            PlantNamespace current = namespace;
            if (current != null) {
                current.show(state, now, now);
            }
        } catch (RuntimeException e) {
            // An escaping exception would cancel the schedule and freeze the plant.
            LOG.error("Demo plant: a simulation tick failed (a bug)", e);
        }
    }

    private OpcUaServerConfig serverConfig() {
        EndpointConfig endpoint = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress(HOST)
                .setBindPort(port)
                .setHostname(HOST)
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
        return new ConfigurationException("opcua_port", "port " + port + " on " + HOST + " is in use; stop what"
                + " listens there or set opcua_port to another port (0 picks a free one)", cause);
    }

    private static boolean portFree(int candidate) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), candidate), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + HOST + " for the demo plant", e);
        }
    }
}
