package io.qubiq.tagbus;

/**
 * A live subscription to the tag bus, returned by {@link TagBus#subscribe}. Closing it stops the
 * subscriber's delivery thread (within the bus's stop timeout), discards what is still queued and
 * frees the name for reuse. Safe to use from any thread, including the subscriber's own consumer.
 */
public interface Subscription extends AutoCloseable {

    String name();

    SubscriberStats stats();

    /** Unsubscribes; idempotent. */
    @Override
    void close();
}
