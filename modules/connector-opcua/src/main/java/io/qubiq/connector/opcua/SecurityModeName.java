package io.qubiq.connector.opcua;

import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;

/** The message security modes, as configuration spells them. */
public enum SecurityModeName {
    NONE(MessageSecurityMode.None),
    SIGN(MessageSecurityMode.Sign),
    SIGN_AND_ENCRYPT(MessageSecurityMode.SignAndEncrypt);

    private final MessageSecurityMode mode;

    SecurityModeName(MessageSecurityMode mode) {
        this.mode = mode;
    }

    public MessageSecurityMode mode() {
        return mode;
    }
}
