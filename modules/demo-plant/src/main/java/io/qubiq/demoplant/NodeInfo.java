package io.qubiq.demoplant;

import io.qubiq.core.tag.DataType;
import java.util.Optional;

/**
 * One variable of the demo plant's OPC UA server, described for whoever builds the OPC UA
 * connection that reads it (the application's {@code demo} command, the docs). Immutable.
 *
 * @param nodeId          the node id in OPC UA string form, such as {@code ns=2;s=Plant.Tank.Level}
 * @param tagPath         the suggested gateway tag path, such as {@code demo/tank/level}
 * @param opcUaType       the variable's OPC UA data type: {@code Double}, {@code Boolean} or {@code UInt32}
 * @param gatewayType     the type the OPC UA connector publishes it as (UInt32 widens to int64)
 * @param writable        whether clients may write it; the others answer writes with Bad_NotWritable
 * @param engineeringUnit the unit, such as {@code m} or {@code degC}; empty for booleans and counts
 * @param meaning         one sentence for docs and the console
 */
public record NodeInfo(String nodeId, String tagPath, String opcUaType, DataType gatewayType, boolean writable,
                       Optional<String> engineeringUnit, String meaning) {
}
