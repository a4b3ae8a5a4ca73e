package io.qubiq.tagbus;

/**
 * What a subscriber's queue does with a new value when it is full. Either way exactly one value is
 * discarded and counted in {@link SubscriberStats#dropped()}; the publisher is never blocked.
 */
public enum OverflowPolicy {

    /**
     * Discard the oldest queued value and queue the new one: the subscriber keeps up with the
     * present and loses history. Right for live views and alarm evaluation.
     */
    DROP_OLDEST,

    /**
     * Discard the incoming value and keep the queue as it is: the subscriber keeps an unbroken
     * stretch of the past and misses the newest values until it catches up.
     */
    DROP_NEWEST
}
