package io.qubiq.testkit.mongo;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * mongo-java-server's memory backend, kept across server restarts. {@code MongoServer.shutdown()}
 * closes its backend, which forgets every database; here that close is ignored so the next server
 * on the same backend still has the data, as a real server would after a restart. {@link #discard}
 * releases it for good.
 *
 * <p>Thread-safe as the memory backend is (its databases synchronize their own access).
 */
final class RetainedMemoryBackend extends MemoryBackend {

    private volatile boolean discarded;

    /** Ignored until {@link #discard}: a stopped server keeps its data for the next start. */
    @Override
    public void close() {
        if (discarded) {
            super.close();
        }
    }

    /** Forgets every database; the backend must not be used afterwards. */
    void discard() {
        discarded = true;
        super.close();
    }
}
