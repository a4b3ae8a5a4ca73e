package io.qubiq.testkit.opcua;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.sdk.server.nodes.filters.AttributeFilter;
import org.eclipse.milo.opcua.sdk.server.nodes.filters.AttributeFilterContext;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;

/** Copies client writes of a node's value into the server's value map and counts them. Thread-safe. */
final class ValueMirror implements AttributeFilter {

    static final AtomicLong CLIENT_WRITES = new AtomicLong();

    private final Map<String, DataValue> values;
    private final String id;

    ValueMirror(Map<String, DataValue> values, String id) {
        this.values = values;
        this.id = id;
    }

    @Override
    public void writeAttribute(AttributeFilterContext ctx, AttributeId attributeId, Object value) throws UaException {
        ctx.writeAttribute(attributeId, value);
        if (attributeId == AttributeId.Value && value instanceof DataValue dataValue) {
            values.put(id, dataValue);
            CLIENT_WRITES.incrementAndGet();
        }
    }
}
