package io.qubiq.app.runtime;

import io.qubiq.questdb.process.LoopbackPorts;

/** Port 0 in configuration means "any free port": one is picked on 127.0.0.1 when the gateway is built. */
public final class FreePort {

    private FreePort() {
    }

    public static int orFixed(int configured) {
        return configured != 0 ? configured : LoopbackPorts.take(1).get(0);
    }
}
