package io.qubiq.connector.mqtt;

import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.core.tag.TagValue;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Counts which sequence numbers arrived per tag (the payload of a {@link SequencedPublisher} message is
 * its sequence number), and how many arrived more than once. Values without a value (Bad NotConnected
 * while disconnected) are ignored. Optionally holds each QoS 1/2 message's custody for a while, as the
 * historian does until its batch is handed to its channel. Safe for the connector's threads.
 */
final class ArrivalTally implements TagPublisher {

    private final String prefix;
    private final long workNanos;
    private final ScheduledExecutorService releases;
    private final Queue<Custody> held = new ConcurrentLinkedQueue<>();
    private final Map<String, BitSet> seen = new HashMap<>();
    private long probes;
    private long arrivals;
    private long duplicates;

    /** Counts values of tags under {@code prefix}; other values count as probes. */
    ArrivalTally(String prefix) {
        this(prefix, 0);
    }

    /**
     * @param workMicros CPU time spent per value before it counts, on the caller's thread (a gateway
     *                   busy with its historian and pipelines, for a slow-consumer run); 0: none
     */
    ArrivalTally(String prefix, long workMicros) {
        this(prefix, workMicros, 0);
    }

    /**
     * @param custodyMs like the historian, hold each QoS 1/2 message's custody until the next release
     *                  round, every this many milliseconds (so its acknowledgement waits that long);
     *                  0: take no custody (acknowledged at once)
     */
    ArrivalTally(String prefix, long workMicros, long custodyMs) {
        this.prefix = prefix;
        this.workNanos = workMicros * 1000;
        if (custodyMs > 0) {
            releases = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "tally-custody");
                thread.setDaemon(true);
                return thread;
            });
            releases.scheduleWithFixedDelay(this::releaseHeld, custodyMs, custodyMs, TimeUnit.MILLISECONDS);
        } else {
            releases = null;
        }
    }

    @Override
    public void publish(TagValue value, CustodyReceipt receipt) {
        if (releases != null) {
            held.add(receipt.share());
        }
        publish(value);
    }

    private void releaseHeld() {
        Custody share;
        while ((share = held.poll()) != null) {
            share.release();
        }
    }

    @Override
    public void publish(TagValue value) {
        if (workNanos > 0) {
            long until = System.nanoTime() + workNanos;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }
        record(value);
    }

    private synchronized void record(TagValue value) {
        if (!(value.value() instanceof Long seq)) {
            return;
        }
        if (!value.path().toString().startsWith(prefix)) {
            probes++;
            return;
        }
        arrivals++;
        BitSet bits = seen.computeIfAbsent(value.path().toString(), tag -> new BitSet());
        if (bits.get(Math.toIntExact(seq))) {
            duplicates++;
        } else {
            bits.set(Math.toIntExact(seq));
        }
    }

    /** How many of {@code expected} (per tag, the sequence numbers the broker acknowledged) never arrived. */
    synchronized long missing(Map<String, BitSet> expected) {
        long missing = 0;
        for (Map.Entry<String, BitSet> tag : expected.entrySet()) {
            BitSet lacking = (BitSet) tag.getValue().clone();
            lacking.andNot(seen.getOrDefault(tag.getKey(), new BitSet()));
            missing += lacking.cardinality();
        }
        return missing;
    }

    synchronized long probes() {
        return probes;
    }

    synchronized long arrivals() {
        return arrivals;
    }

    /** Arrivals of a sequence number that had arrived before (MQTT QoS 1 redeliveries). */
    synchronized long duplicates() {
        return duplicates;
    }
}
