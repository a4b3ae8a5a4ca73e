package io.qubiq.testkit.opcua;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.sdk.server.util.SubscriptionModel;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;

/**
 * The test server's namespace: a folder {@code Plant} under Objects holding one variable per
 * {@link TestVariable}. Values live in the shared {@code values} map, owned by {@link
 * TestOpcUaServer}, so a restarted server comes back with the values the test last set, and
 * client writes land there too. Built and torn down by the server's startup/shutdown.
 */
final class TestNamespace extends ManagedNamespaceWithLifecycle {

    static final String URI = "urn:qubiq:testkit:opcua";
    static final String FOLDER = "Plant";

    private final SubscriptionModel subscriptionModel;
    private final Map<String, DataValue> values;
    private final Map<String, UaVariableNode> nodes = new ConcurrentHashMap<>();

    TestNamespace(OpcUaServer server, Map<String, DataValue> values) {
        super(server, URI);
        this.values = values;
        this.subscriptionModel = new SubscriptionModel(server, this);
        getLifecycleManager().addLifecycle(subscriptionModel);
        getLifecycleManager().addStartupTask(this::addNodes);
    }

    private void addNodes() {
        UaFolderNode folder = new UaFolderNode(getNodeContext(), newNodeId(FOLDER), newQualifiedName(FOLDER),
                LocalizedText.english(FOLDER));
        getNodeManager().addNode(folder);
        folder.addReference(new Reference(folder.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                false));
        for (TestVariable variable : TestVariable.values()) {
            var access = variable.writable() ? AccessLevel.READ_WRITE : AccessLevel.READ_ONLY;
            UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                    .setNodeId(newNodeId(variable.id()))
                    .setAccessLevel(access)
                    .setUserAccessLevel(access)
                    .setBrowseName(newQualifiedName(variable.id()))
                    .setDisplayName(LocalizedText.english(variable.id()))
                    .setDataType(variable.dataType())
                    .setTypeDefinition(NodeIds.BaseDataVariableType)
                    .build();
            node.setValue(values.computeIfAbsent(variable.id(), id -> variable.initialValue()));
            // Client writes go through the node; mirror them into the shared map so a restart keeps them.
            node.getFilterChain().addLast(new ValueMirror(values, variable.id()));
            getNodeManager().addNode(node);
            folder.addOrganizes(node);
            nodes.put(variable.id(), node);
        }
    }

    void set(String id, DataValue value) {
        values.put(id, value);
        UaVariableNode node = nodes.get(id);
        if (node != null) {
            node.setValue(value);
        }
    }

    @Override
    public void onDataItemsCreated(List<DataItem> dataItems) {
        subscriptionModel.onDataItemsCreated(dataItems);
    }

    @Override
    public void onDataItemsModified(List<DataItem> dataItems) {
        subscriptionModel.onDataItemsModified(dataItems);
    }

    @Override
    public void onDataItemsDeleted(List<DataItem> dataItems) {
        subscriptionModel.onDataItemsDeleted(dataItems);
    }

    @Override
    public void onMonitoringModeChanged(List<MonitoredItem> monitoredItems) {
        subscriptionModel.onMonitoringModeChanged(monitoredItems);
    }
}
