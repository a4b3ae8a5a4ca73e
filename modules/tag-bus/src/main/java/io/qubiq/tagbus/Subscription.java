package io.qubiq.tagbus;

/**
 * A live subscription to the tag bus, returned by {@link TagBus#subscribe}. Closing it stops the
 * subscriber's delivery thread (within the bus's stop timeout), discards what is still queued (reported to
 * the loss ledger as {@code subscriber_closed}) and frees the name for reuse; {@link #drain} first delivers
 * what is queued. Safe to use from any thread, including the subscriber's own consumer.
 */
public interface Subscription extends AutoCloseable {

    String name();

    SubscriberStats stats();

    /**
     * Waits until the values queued so far have been delivered and handled by the consumer, at most
     * {@code timeout}; returns whether they were. For a graceful stop: called once the publishers have
     * stopped, it lets the consumer keep what was on its way instead of {@link #close} discarding it. Values
     * published meanwhile are waited for too.
     */
    boolean drain(java.time.Duration timeout) throws InterruptedException;

    /** Unsubscribes; idempotent. */
    @Override
    void close();
}
