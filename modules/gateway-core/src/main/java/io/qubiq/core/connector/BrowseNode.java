package io.qubiq.core.connector;

import java.util.Optional;

/**
 * One child of a browsed node in a device's address space, for the console's lazy browser.
 *
 * @param nodeId      the child's id in the device's own parseable form ({@code ns=2;s=Temperature})
 * @param browseName  the name the device gives it, with any namespace prefix ({@code 2:Temperature})
 * @param displayName the text to show
 * @param nodeClass   what it is: Object, Variable, Method, ...
 * @param dataType    for variables, the data type's name; empty otherwise
 */
public record BrowseNode(String nodeId, String browseName, String displayName, String nodeClass,
                         Optional<String> dataType) {
}
