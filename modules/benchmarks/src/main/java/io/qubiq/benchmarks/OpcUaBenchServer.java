package io.qubiq.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * The OPC UA server of {@link OpcUaThroughputHarness}, run as its own JVM so its CPU is not the
 * gateway's: N Int64 variables {@code ns=2;s=V<i>} in a folder {@code Bench}, all set to the same
 * sequence number every {@code --interval-ms}, counting up from 1. A client that sees every value of
 * a variable sees 1, 2, 3, ... without gaps; a gap is a lost value.
 *
 * <p>The server reports changes, not samples: every update is handed straight to the monitored
 * items of the variable ({@link DataItem#setValue}), so each change reaches the item's queue once
 * whatever the requested sampling interval (a sampling server whose sampling and update clocks
 * drift would skip or repeat values by aliasing, and that loss would be the server's).
 *
 * <p>Protocol on stdout/stdin, one line each: it prints {@code READY <endpoint>} once listening;
 * {@code START} on stdin starts the updates, {@code STOP} stops them and prints {@code STOPPED <seq>}
 * (the last sequence number every variable got), {@code EXIT} (or end of stdin) shuts down.
 * SecurityPolicy None, anonymous, 127.0.0.1 only.
 */
public final class OpcUaBenchServer {

    static final String URI = "urn:qubiq:bench";

    public static void main(String[] args) throws Exception {
        int port = 0;
        int variables = 10_000;
        long intervalMs = 100;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--variables" -> variables = Integer.parseInt(args[++i]);
                case "--interval-ms" -> intervalMs = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        EndpointConfig endpoint = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("127.0.0.1").setBindPort(port).setHostname("127.0.0.1").setPath("/bench")
                .setSecurityPolicy(SecurityPolicy.None).setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS)
                .build();
        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri("urn:qubiq:bench:server").setProductUri("urn:qubiq:bench")
                .setApplicationName(LocalizedText.english("Qubiq benchmark server"))
                .setEndpoints(Set.of(endpoint))
                .setCertificateManager(new DefaultCertificateManager(new MemoryCertificateQuarantine()))
                .setIdentityValidator(AnonymousIdentityValidator.INSTANCE)
                .build();
        OpcUaServer server = new OpcUaServer(config,
                profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder().build()));
        BenchNamespace namespace = new BenchNamespace(server, variables);
        namespace.startup();
        server.startup().get(60, TimeUnit.SECONDS);
        System.out.println("READY opc.tcp://127.0.0.1:" + port + "/bench");
        System.out.flush();

        ScheduledExecutorService updater = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "bench-updater"));
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = commands.readLine()) != null) {
            switch (line.trim()) {
                case "START" -> updater.scheduleAtFixedRate(namespace::advance, 0, intervalMs, TimeUnit.MILLISECONDS);
                case "STOP" -> {
                    updater.shutdown();
                    updater.awaitTermination(30, TimeUnit.SECONDS);
                    System.out.println("STOPPED " + namespace.sequence());
                    System.out.flush();
                }
                case "EXIT" -> {
                    server.shutdown().get(10, TimeUnit.SECONDS);
                    System.exit(0);
                }
                default -> System.err.println("unknown command " + line);
            }
        }
        server.shutdown().get(10, TimeUnit.SECONDS);
        System.exit(0);
    }

    /** N variables and the monitored items on each, updated together by {@link #advance}. */
    static final class BenchNamespace extends ManagedNamespaceWithLifecycle {

        private final int count;
        private final List<UaVariableNode> nodes = new ArrayList<>();
        private final Map<NodeId, UaVariableNode> byId = new ConcurrentHashMap<>();
        private final Map<NodeId, List<DataItem>> items = new ConcurrentHashMap<>();
        private volatile long sequence;

        BenchNamespace(OpcUaServer server, int count) {
            super(server, URI);
            this.count = count;
            getLifecycleManager().addStartupTask(this::addNodes);
        }

        static String id(int i) {
            return String.format("V%05d", i);
        }

        private void addNodes() {
            UaFolderNode folder = new UaFolderNode(getNodeContext(), newNodeId("Bench"), newQualifiedName("Bench"),
                    LocalizedText.english("Bench"));
            getNodeManager().addNode(folder);
            folder.addReference(new Reference(folder.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                    false));
            DateTime now = DateTime.now();
            for (int i = 0; i < count; i++) {
                UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                        .setNodeId(newNodeId(id(i)))
                        .setAccessLevel(AccessLevel.READ_ONLY).setUserAccessLevel(AccessLevel.READ_ONLY)
                        .setBrowseName(newQualifiedName(id(i))).setDisplayName(LocalizedText.english(id(i)))
                        .setDataType(NodeIds.Int64).setTypeDefinition(NodeIds.BaseDataVariableType)
                        .build();
                node.setValue(new DataValue(new Variant(0L), StatusCode.GOOD, now, now));
                getNodeManager().addNode(node);
                folder.addOrganizes(node);
                nodes.add(node);
                byId.put(node.getNodeId(), node);
            }
        }

        /** The next sequence number, on every variable and straight into every monitored item's queue. */
        void advance() {
            long next = sequence + 1;
            DateTime now = DateTime.now();
            DataValue value = new DataValue(new Variant(next), StatusCode.GOOD, now, now);
            for (UaVariableNode node : nodes) {
                node.setValue(value);
                List<DataItem> watching = items.get(node.getNodeId());
                if (watching != null) {
                    for (DataItem item : watching) {
                        item.setValue(value);
                    }
                }
            }
            sequence = next;
        }

        long sequence() {
            return sequence;
        }

        @Override
        public void onDataItemsCreated(List<DataItem> created) {
            // The harness creates its items before START; an item created during updates may miss one value.
            for (DataItem item : created) {
                NodeId id = item.getReadValueId().getNodeId();
                UaVariableNode node = byId.get(id);
                if (node != null) {
                    item.setValue(node.getValue()); // the current value at once, as a sampling server sends it
                }
                items.computeIfAbsent(id, key -> new CopyOnWriteArrayList<>()).add(item);
            }
        }

        @Override
        public void onDataItemsModified(List<DataItem> modified) {
        }

        @Override
        public void onDataItemsDeleted(List<DataItem> deleted) {
            for (DataItem item : deleted) {
                List<DataItem> watching = items.get(item.getReadValueId().getNodeId());
                if (watching != null) {
                    watching.remove(item);
                }
            }
        }

        @Override
        public void onMonitoringModeChanged(List<MonitoredItem> changed) {
        }
    }
}
