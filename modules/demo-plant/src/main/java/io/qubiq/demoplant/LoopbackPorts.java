package io.qubiq.demoplant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

/** Port checks on 127.0.0.1 for the plant's two servers. Stateless. */
final class LoopbackPorts {

    static final String HOST = "127.0.0.1";

    private LoopbackPorts() {
    }

    /** Whether {@code port} can be bound on {@value #HOST} right now. */
    static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port that was free a moment ago. */
    static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + HOST + " for the demo plant", e);
        }
    }

    /**
     * Waits (at most {@code timeoutS}) until {@code port} can be bound again: servers may close their
     * listening socket just after their shutdown completes. Returns whether it became free.
     */
    static boolean awaitReleased(int port, long timeoutS) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (!free(port)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
