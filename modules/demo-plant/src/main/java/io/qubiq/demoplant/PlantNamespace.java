package io.qubiq.demoplant;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;

/**
 * The plant's address space: a folder {@code Plant} under Objects organizing one variable per
 * {@link PlantVariable}, node ids {@code ns=2;s=Plant.<Unit>.<Name>}. The two setpoints are
 * CurrentRead|CurrentWrite and their writes go to the model through {@link SetpointWrite}; every
 * other variable is read-only, so the server answers a write with Bad_NotWritable. Built by the
 * namespace's startup; {@link #show} may be called from any thread (Milo's nodes are thread-safe).
 */
final class PlantNamespace extends ManagedNamespaceWithLifecycle {

    static final String URI = "urn:qubiq:demo-plant";
    static final String FOLDER = "Plant";

    private final SubscriptionModel subscriptionModel;
    private final Map<PlantVariable, UaVariableNode> nodes = new EnumMap<>(PlantVariable.class);

    PlantNamespace(OpcUaServer server, PlantModel model) {
        super(server, URI);
        this.subscriptionModel = new SubscriptionModel(server, this);
        getLifecycleManager().addLifecycle(subscriptionModel);
        getLifecycleManager().addStartupTask(() -> addNodes(model));
    }

    private void addNodes(PlantModel model) {
        UaFolderNode folder = new UaFolderNode(getNodeContext(), newNodeId(FOLDER), newQualifiedName(FOLDER),
                LocalizedText.english(FOLDER));
        getNodeManager().addNode(folder);
        folder.addReference(new Reference(folder.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                false));
        PlantState initial = model.state();
        Instant now = Instant.now();
        for (PlantVariable variable : PlantVariable.values()) {
            var access = variable.writable() ? AccessLevel.READ_WRITE : AccessLevel.READ_ONLY;
            String name = variable.id().substring(FOLDER.length() + 1);
            UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                    .setNodeId(newNodeId(variable.id()))
                    .setAccessLevel(access)
                    .setUserAccessLevel(access)
                    .setBrowseName(newQualifiedName(name))
                    .setDisplayName(LocalizedText.english(name))
                    .setDescription(LocalizedText.english(variable.info().meaning()))
                    .setDataType(variable.kind().dataType)
                    .setTypeDefinition(NodeIds.BaseDataVariableType)
                    .build();
            node.setValue(dataValue(variable, initial, now, now));
            if (variable.writable()) {
                node.getFilterChain().addLast(new SetpointWrite(model, variable));
            }
            getNodeManager().addNode(node);
            folder.addOrganizes(node);
            nodes.put(variable, node);
        }
    }

    /** Shows {@code state} on every variable, sampled at {@code sourceTime}. */
    void show(PlantState state, Instant sourceTime, Instant serverTime) {
        nodes.forEach((variable, node) -> node.setValue(dataValue(variable, state, sourceTime, serverTime)));
    }

    private static DataValue dataValue(PlantVariable variable, PlantState state, Instant sourceTime,
                                       Instant serverTime) {
        return new DataValue(new Variant(variable.valueIn(state)), StatusCode.GOOD, new DateTime(sourceTime),
                new DateTime(serverTime));
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
