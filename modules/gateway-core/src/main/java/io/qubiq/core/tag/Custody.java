package io.qubiq.core.tag;

import java.util.List;

/**
 * One holder's share of a {@link CustodyReceipt}: what a durable consumer (the historian, a
 * store-and-forward channel's hand-off) carries with the data it took until that data is safe or
 * accounted for. Releasing it is the holder's way of saying "this is no longer mine to lose".
 *
 * <p><b>When to release.</b> Exactly when the data it travels with was appended to a durable buffer,
 * delivered to its destination, or accounted for as a loss or as deliberate filtering: refused by a
 * full channel, dropped by an overflowing queue, quarantined, discarded by a storage rule (deadband,
 * minimum interval), failed in a consumer. Holding a share longer than that would hold the source's
 * acknowledgement for ever (and an MQTT client acknowledges in arrival order, so everything behind it);
 * releasing it earlier would acknowledge data a crash can still lose.
 *
 * <p>{@link #release} is idempotent and safe from any thread; only the first call counts.
 */
@FunctionalInterface
public interface Custody {

    /** Nothing to release: data whose source cannot redeliver (QoS 0, OPC UA, internal values). */
    Custody NONE = () -> { };

    /** Gives the share back; idempotent, from any thread, never blocks. */
    void release();

    /** One share standing for all of {@code shares}: releasing it releases each of them once. */
    static Custody allOf(List<Custody> shares) {
        if (shares.isEmpty()) {
            return NONE;
        }
        if (shares.size() == 1) {
            return shares.get(0);
        }
        List<Custody> all = List.copyOf(shares);
        java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                all.forEach(Custody::release);
            }
        };
    }
}
