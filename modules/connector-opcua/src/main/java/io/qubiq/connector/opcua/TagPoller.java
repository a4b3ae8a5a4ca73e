package io.qubiq.connector.opcua;

import io.qubiq.core.tag.TagPath;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;

/**
 * Reads a set of tags once with OPC UA Read ({@code readValues}, source and server timestamps),
 * in requests of at most the server's MaxNodesPerRead (1000 when it publishes none). Used each
 * polling interval and once after a reconnect. Each value goes to {@code onValue}; a failed request
 * goes to {@code onFailure} with the tags it covered. Runs on the calling thread (the connector
 * thread); stateless.
 */
final class TagPoller {

    private static final int DEFAULT_MAX_NODES_PER_READ = 1000;

    private final TagDataListener onValue;
    private final BiConsumer<List<OpcUaTagConfig>, Exception> onFailure;

    TagPoller(TagDataListener onValue, BiConsumer<List<OpcUaTagConfig>, Exception> onFailure) {
        this.onValue = onValue;
        this.onFailure = onFailure;
    }

    /** Reads every tag of {@code tags} (by path, in its order). */
    void readAll(OpcUaClient client, List<Map.Entry<TagPath, OpcUaTagConfig>> tags) {
        int chunk = maxNodesPerRead(client);
        for (int from = 0; from < tags.size(); from += chunk) {
            List<Map.Entry<TagPath, OpcUaTagConfig>> entries = tags.subList(from, Math.min(tags.size(), from + chunk));
            List<OpcUaTagConfig> part = entries.stream().map(Map.Entry::getValue).toList();
            List<DataValue> values;
            try {
                values = client.readValues(0.0, TimestampsToReturn.Both, part.stream().map(OpcUaTagConfig::node).toList());
            } catch (Exception e) {
                onFailure.accept(part, e);
                continue;
            }
            for (int i = 0; i < part.size(); i++) {
                onValue.onValue(part.get(i), entries.get(i).getKey(), values.get(i));
            }
        }
    }

    private static int maxNodesPerRead(OpcUaClient client) {
        try {
            return client.getOperationLimits().maxNodesPerRead().map(v -> v.intValue()).filter(v -> v > 0)
                    .orElse(DEFAULT_MAX_NODES_PER_READ);
        } catch (Exception e) {
            return DEFAULT_MAX_NODES_PER_READ;
        }
    }
}
