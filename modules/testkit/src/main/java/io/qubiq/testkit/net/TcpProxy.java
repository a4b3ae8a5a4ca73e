package io.qubiq.testkit.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy in front of one server, to give a real client library real network
 * failures: a reply that never comes, a connection reset. It listens on 127.0.0.1 on a free port;
 * every accepted connection gets a connection of its own to the target and two pump threads.
 *
 * <ul>
 *   <li>{@link Mode#FORWARD}: bytes flow both ways unchanged.
 *   <li>{@link Mode#BLACK_HOLE}: connections stay open and requests still reach the server, but
 *       the server's replies are read and thrown away. A client's read then times out <i>after</i>
 *       its request was sent and possibly executed: the classic unknown outcome. New connections are
 *       accepted and treated the same way.
 *   <li>{@link Mode#RESET}: every open connection is reset (RST: {@code SO_LINGER 0}, then close)
 *       and every new one is reset as soon as it is accepted, as a crashed server or a firewall
 *       would. The server never sees what the client sends afterwards.
 * </ul>
 *
 * Switching back to {@link Mode#FORWARD} affects connections made from then on and, for
 * black-holed ones, replies read from then on (replies discarded meanwhile stay lost).
 *
 * <p>Threading: the mode may be changed from any thread; {@link #close()} stops the acceptor and
 * every connection and may be called more than once.
 */
public final class TcpProxy implements AutoCloseable {

    /** What the proxy does with connections; see the class doc. */
    public enum Mode { FORWARD, BLACK_HOLE, RESET }

    private static final int BUFFER_BYTES = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicLong discardedBytes = new AtomicLong();
    private final AtomicInteger accepted = new AtomicInteger();
    private final String name;
    private final Thread acceptor;
    private volatile Mode mode = Mode.FORWARD;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress target, ServerSocket listener) {
        this.target = target;
        this.listener = listener;
        this.name = "tcp-proxy-" + INSTANCES.incrementAndGet();
        this.acceptor = new Thread(this::acceptLoop, name + "-accept");
        this.acceptor.setDaemon(true);
    }

    /** A started proxy on a free loopback port, forwarding to {@code host:port}. */
    public static TcpProxy to(String host, int port) {
        try {
            ServerSocket listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            TcpProxy proxy = new TcpProxy(new InetSocketAddress(host, port), listener);
            proxy.acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("the TCP proxy could not listen on 127.0.0.1", e);
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return listener.getLocalPort();
    }

    public Mode mode() {
        return mode;
    }

    /** Passes bytes both ways again. */
    public void forward() {
        mode = Mode.FORWARD;
    }

    /** Keeps connections open and forwards requests, but throws every reply away. */
    public void blackHole() {
        mode = Mode.BLACK_HOLE;
    }

    /** Resets every open connection and every new one. */
    public void reset() {
        mode = Mode.RESET;
        for (Link link : links) {
            link.reset();
        }
    }

    /** Connections currently open through the proxy. */
    public int openConnections() {
        return links.size();
    }

    /** Connections accepted since the start (including ones reset at once). */
    public int acceptedConnections() {
        return accepted.get();
    }

    /** Reply bytes thrown away in black-hole mode. */
    public long discardedBytes() {
        return discardedBytes.get();
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Link link : links) {
            link.close();
        }
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name + "(127.0.0.1:" + port() + " -> " + target.getHostString() + ":" + target.getPort() + ", " + mode
                + ")";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            if (mode == Mode.RESET) {
                resetQuietly(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                upstream.connect(target, CONNECT_TIMEOUT_MS);
            } catch (IOException e) {
                closeQuietly(upstream);
                resetQuietly(client);
                continue;
            }
            Link link = new Link(client, upstream);
            links.add(link);
            link.start();
        }
    }

    /** One proxied connection: the client's socket, ours to the target, a pump for each direction. */
    private final class Link {
        private final Socket client;
        private final Socket upstream;

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void start() {
            int n = accepted.get();
            Thread requests = new Thread(() -> pump(client, upstream, false), name + "-c" + n + "-requests");
            Thread replies = new Thread(() -> pump(upstream, client, true), name + "-c" + n + "-replies");
            requests.setDaemon(true);
            replies.setDaemon(true);
            requests.start();
            replies.start();
        }

        private void pump(Socket from, Socket to, boolean replies) {
            byte[] buffer = new byte[BUFFER_BYTES];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                while (true) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    if (replies && mode == Mode.BLACK_HOLE) {
                        discardedBytes.addAndGet(n);
                        continue;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // reset, closed by the other pump, or the peer went away: the link ends
            }
            close();
        }

        void reset() {
            resetQuietly(client);
            close();
        }

        void close() {
            links.remove(this);
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    private static void resetQuietly(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (SocketException ignored) {
            // already closed
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
