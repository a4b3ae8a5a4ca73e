package io.qubiq.connector.opcua;

import io.qubiq.core.connector.BrowseNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.OpcUaDataType;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;

/**
 * One level of the server's address space: browses a node's hierarchical children, then reads the
 * DataType attribute of the variables among them in one request. Stateless; any thread.
 */
final class AddressSpaceBrowser {

    private final OpcUaClient client;

    AddressSpaceBrowser(OpcUaClient client) {
        this.client = client;
    }

    CompletableFuture<List<BrowseNode>> children(NodeId parent) {
        return client.getAddressSpace().browseAsync(parent).thenCompose(references -> {
            List<NodeId> ids = references.stream()
                    .map(r -> r.getNodeId().toNodeId(client.getNamespaceTable()).orElse(NodeId.NULL_VALUE))
                    .toList();
            List<ReadValueId> dataTypeReads = new ArrayList<>();
            for (int i = 0; i < references.size(); i++) {
                if (references.get(i).getNodeClass() == NodeClass.Variable) {
                    dataTypeReads.add(new ReadValueId(ids.get(i), AttributeId.DataType.uid(), null,
                            QualifiedName.NULL_VALUE));
                }
            }
            CompletableFuture<List<Optional<String>>> dataTypes = dataTypeReads.isEmpty()
                    ? CompletableFuture.completedFuture(List.of())
                    : client.readAsync(0.0, TimestampsToReturn.Neither, dataTypeReads).thenApply(response ->
                            java.util.Arrays.stream(response.getResults()).map(value -> {
                                Object raw = value.getValue() == null ? null : value.getValue().getValue();
                                return raw instanceof NodeId typeId ? Optional.of(dataTypeName(typeId))
                                        : Optional.<String>empty();
                            }).toList());
            return dataTypes.thenApply(types -> {
                List<BrowseNode> entries = new ArrayList<>();
                int next = 0;
                for (int i = 0; i < references.size(); i++) {
                    ReferenceDescription ref = references.get(i);
                    Optional<String> type = ref.getNodeClass() == NodeClass.Variable && next < types.size()
                            ? types.get(next++) : Optional.empty();
                    entries.add(new BrowseNode(ids.get(i).toParseableString(), ref.getBrowseName().toParseableString(),
                            ref.getDisplayName().getText(), ref.getNodeClass().name(), type));
                }
                return entries;
            });
        });
    }

    private static String dataTypeName(NodeId typeId) {
        OpcUaDataType builtin = OpcUaDataType.isBuiltin(typeId) ? OpcUaDataType.fromNodeId(typeId) : null;
        return builtin != null ? builtin.name() : typeId.toParseableString();
    }
}
