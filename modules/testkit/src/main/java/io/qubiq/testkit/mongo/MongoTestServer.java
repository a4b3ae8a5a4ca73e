package io.qubiq.testkit.mongo;

import de.bwaldvogel.mongo.MongoServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A real MongoDB wire-protocol server for tests: mongo-java-server 1.47.0 with its memory backend
 * ({@code ../shared/STACK.md}: no {@code mongod} can be installed here), listening on 127.0.0.1 on a
 * free port chosen once.
 *
 * <p>{@link #stop()} closes every client connection and the listening socket, as a crashed or
 * restarted server would; {@link #start()} binds the same port again on the same memory backend, so
 * what was written before the outage is still there after it. {@link #close()} stops it for good
 * and forgets the data.
 *
 * <p>What it does not do (so tests must not rely on it): sessions and transactions,
 * {@code MongoClient.bulkWrite} (the cross-collection command; {@code MongoCollection.bulkWrite}
 * works), schema validators, write concerns beyond acknowledging, and it misreports
 * {@code insertedCount} after a partly failed bulk write: count the documents instead. Duplicate
 * keys are reported like {@code mongod} does: code 11000, message
 * {@code E11000 duplicate key error collection: <db>.<coll> index: <name> dup key: { ... }}.
 *
 * <p>start/stop/close are synchronized; {@link #port()}, {@link #host()} and
 * {@link #connectionString()} may be read from any thread.
 */
public final class MongoTestServer implements AutoCloseable {

    private final int port;
    private final RetainedMemoryBackend backend = new RetainedMemoryBackend();
    private MongoServer server;
    private boolean closed;

    private MongoTestServer(int port) {
        this.port = port;
    }

    /** A server on a free port, not yet started. */
    public static MongoTestServer onFreePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return new MongoTestServer(socket.getLocalPort());
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1 for the test MongoDB server", e);
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** {@code mongodb://127.0.0.1:<port>}: no credentials, no options. */
    public String connectionString() {
        return "mongodb://" + host() + ":" + port;
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /** Starts listening (idempotent), on the same port and data as before any {@link #stop()}. */
    public synchronized MongoTestServer start() {
        if (closed) {
            throw new IllegalStateException("this test MongoDB server is closed");
        }
        if (server != null) {
            return this;
        }
        MongoServer next = new MongoServer(backend);
        try {
            next.bind(host(), port);
        } catch (RuntimeException e) {
            next.shutdownNow();
            throw new IllegalStateException("the test MongoDB server could not bind " + host() + ":" + port, e);
        }
        server = next;
        return this;
    }

    /**
     * Stops accepting, closes every client connection and stops the server's threads; the data
     * stays for the next {@link #start()}. Idempotent.
     */
    public synchronized void stop() {
        MongoServer current = server;
        server = null;
        if (current != null) {
            current.shutdownNow();
        }
    }

    /** Stops the server for good and forgets its data. */
    @Override
    public synchronized void close() {
        stop();
        if (!closed) {
            closed = true;
            backend.discard();
        }
    }

    @Override
    public String toString() {
        return "MongoTestServer(" + connectionString() + (isRunning() ? ", running)" : ", stopped)");
    }
}
