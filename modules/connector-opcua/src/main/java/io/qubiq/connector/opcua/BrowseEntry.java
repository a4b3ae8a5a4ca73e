package io.qubiq.connector.opcua;

import java.util.Optional;

/**
 * One child of a browsed node, for the console's address-space browser.
 *
 * @param nodeId the child's node id in parseable form ({@code ns=2;s=Temperature})
 * @param browseName the browse name with its namespace index ({@code 2:Temperature})
 * @param displayName the display text
 * @param nodeClass Object, Variable, Method, ...
 * @param dataType for variables, the data type's name (Double, Int32) or node id; empty otherwise
 */
public record BrowseEntry(String nodeId, String browseName, String displayName, String nodeClass,
                          Optional<String> dataType) {
}
