package io.qubiq.connector.opcua;

import io.qubiq.core.tag.TagPath;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;

/**
 * Receives one data value of a configured tag, from a monitored item or a read. The tag's path is
 * resolved once (when the item is created, or per read request), not for every value: at 100,000
 * values/s parsing it again was a tenth of the connector's CPU.
 */
@FunctionalInterface
interface TagDataListener {

    void onValue(OpcUaTagConfig tag, TagPath path, DataValue value);
}
