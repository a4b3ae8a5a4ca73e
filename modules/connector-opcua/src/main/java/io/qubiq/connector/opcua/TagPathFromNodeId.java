package io.qubiq.connector.opcua;

import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/**
 * The tag path of a tag written without one, derived from its node id when the configuration is
 * loaded (the browse name is only known after connecting, and a path must be known before). A
 * string identifier keeps its text, {@code /} separating segments, every other character a tag path
 * cannot hold replaced by {@code _}, empty segments dropped: {@code ns=2;s=Line1/Oven Temp} is
 * {@code Line1/Oven_Temp}. Any other identifier becomes {@code ns<index>_} and the identifier with
 * its kind letter: {@code ns=3;i=1001} is {@code ns3_i1001}. Stateless.
 */
final class TagPathFromNodeId {

    private TagPathFromNodeId() {
    }

    /**
     * The derived path. It may still be invalid (an empty string identifier); a node id that does not
     * parse is only sanitized (its own check reports it).
     */
    static String derive(String nodeId) {
        String canonical = NodeId.parseSafe(nodeId).map(NodeId::toParseableString).orElse(null);
        if (canonical == null) {
            return sanitize(nodeId, true);
        }
        int namespace = 0;
        String identifier = canonical;
        if (canonical.startsWith("ns=")) {
            int semicolon = canonical.indexOf(';');
            namespace = Integer.parseInt(canonical.substring(3, semicolon));
            identifier = canonical.substring(semicolon + 1);
        }
        if (identifier.startsWith("s=")) {
            return sanitize(identifier.substring(2), true);
        }
        return "ns" + namespace + "_" + sanitize(identifier.charAt(0) + identifier.substring(2), false);
    }

    private static String sanitize(String text, boolean keepSlashes) {
        StringBuilder out = new StringBuilder();
        for (String segment : keepSlashes ? text.split("/") : new String[] {text}) {
            if (segment.isEmpty()) {
                continue;
            }
            if (out.length() > 0) {
                out.append('/');
            }
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                boolean allowed = Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == ':' || c == '#';
                out.append(allowed ? c : '_');
            }
        }
        return out.toString();
    }
}
