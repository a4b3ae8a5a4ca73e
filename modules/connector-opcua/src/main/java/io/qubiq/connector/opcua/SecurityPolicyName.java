package io.qubiq.connector.opcua;

import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;

/** The security policies the connector offers, as configuration spells them. */
public enum SecurityPolicyName {
    NONE(SecurityPolicy.None),
    BASIC256SHA256(SecurityPolicy.Basic256Sha256),
    AES128_SHA256_RSAOAEP(SecurityPolicy.Aes128_Sha256_RsaOaep),
    AES256_SHA256_RSAPSS(SecurityPolicy.Aes256_Sha256_RsaPss);

    private final SecurityPolicy policy;

    SecurityPolicyName(SecurityPolicy policy) {
        this.policy = policy;
    }

    public SecurityPolicy policy() {
        return policy;
    }
}
