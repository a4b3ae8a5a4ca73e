package io.qubiq.connector.opcua;

import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Secret;
import io.qubiq.core.config.Variant;
import java.nio.file.Path;

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

    @Variant("x509")
    @Doc("An X.509 user certificate and its private key: the session proves possession of the key by signing"
            + " the server's certificate and nonce. The server must offer a certificate user token policy on the"
            + " endpoint and accept (trust) the user certificate.")
    record X509(
            @Doc("Path of the user certificate, PEM or DER; a PEM file may add the issuing CA certificates"
                    + " after it. A relative path is taken relative to the gateway's working directory.")
            Path certificate,

            @Doc("Path of the certificate's private key: PEM, PKCS#8 (BEGIN PRIVATE KEY), unencrypted, RSA or EC."
                    + " Keep the file readable by the gateway only.")
            Path privateKey) implements OpcUaIdentity {
    }
}
