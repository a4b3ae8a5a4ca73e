package io.qubiq.app.questdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Port 0 in configuration means "any free port": one is picked on 127.0.0.1 when the gateway is built. */
public final class FreePort {

    private FreePort() {
    }

    public static int orFixed(int configured) {
        if (configured != 0) {
            return configured;
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}
