package io.qubiq.connector.opcua;

import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Secret;
import io.qubiq.core.config.Variant;

/** The user identity the session activates with, selected by {@code type}. */
public sealed interface OpcUaIdentity {

    @Variant("anonymous")
    @Doc("No user identity; the server must offer an anonymous token policy.")
    record Anonymous() implements OpcUaIdentity {
    }

    @Variant("username")
    @Doc("A user name and password, sent as the server's username token policy asks (encrypted with the"
            + " server certificate when the policy says so).")
    record Username(
            @Doc("The user name.")
            String username,

            @Doc("The password; write it as ${ENV_VAR} rather than in the file.")
            @Secret
            String password) implements OpcUaIdentity {

        @Override
        public String toString() {
            return "Username[username=" + username + ", password=***]";
        }
    }
}
