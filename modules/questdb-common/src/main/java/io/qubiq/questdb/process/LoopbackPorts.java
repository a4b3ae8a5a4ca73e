package io.qubiq.questdb.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Distinct free TCP ports on 127.0.0.1, found by binding to port 0. All sockets stay open until
 * every port is chosen, so the ports differ; another process may still take one before the server
 * binds it, a small race every fixture of this kind accepts (and a gateway configured with port 0).
 *
 * <p>Stateless.
 */
public final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /** {@code count} distinct ports that were free a moment ago. */
    public static List<Integer> take(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                socket.setReuseAddress(true);
                sockets.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // only probing
                }
            }
        }
    }
}
