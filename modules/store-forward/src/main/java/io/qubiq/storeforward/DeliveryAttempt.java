package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferReader;
import io.qubiq.buffer.DiskFull;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.core.sink.Sink;
import io.qubiq.storeforward.PreparedBatch.Decoded;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.storeforward.quarantine.QuarantineFullException;
import io.qubiq.storeforward.quarantine.QuarantineStore;
import io.qubiq.storeforward.quarantine.RetriedItems;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one prepared batch and applies the failure classes of DESIGN.md rule 4, strictly in
 * buffer order: every record is either written or quarantined before any later one is, and the
 * buffer is acknowledged up to each resolved record, never past an unresolved one.
 *
 * <ul>
 *   <li><b>Success</b>: acknowledge the batch.
 *   <li><b>Transient</b> (and configuration): nothing is counted against the items; the caller
 *       backs off and retries the same head batch.
 *   <li><b>Permanent</b>: the rejected items go to quarantine and the rest is delivered in order.
 *       When the sink names the rejected items they are set aside directly (and the others written
 *       again unless the sink says it already wrote them); otherwise the batch is bisected until
 *       each culprit stands alone.
 *   <li><b>Unknown outcome</b>: one more attempt for each item; items that reached
 *       {@code max_delivery_attempts} at the head of the batch are quarantined as "outcome unknown",
 *       the rest retried after backoff. Idempotent sinks are retried without a cap.
 *   <li><b>Unclassified</b> (the sink throws an unchecked exception that is none of the above, a bug):
 *       the batch is bisected until the item that crashes the sink stands alone, the items before it
 *       delivered; that item gets one more attempt and is retried after backoff, and at
 *       {@code max_delivery_attempts} it is quarantined as "sink failure: &lt;class&gt;: &lt;message&gt;",
 *       idempotent sink or not, so one item can never stop a channel. An item whose decoding crashes
 *       the codec the same way is quarantined at the cap as "codec failure: ...".
 *       An {@link Error} that is not the JVM's own ({@code StackOverflowError}, {@code
 *       NoClassDefFoundError}, {@code AssertionError}, ...) is handled the same way, on the same
 *       thread (see {@link DeliveryPolicy}).
 *   <li><b>A failure of the JVM</b> ({@code OutOfMemoryError}, {@code InternalError}): the first time,
 *       nothing is counted and the error is rethrown: it ends the forwarder's thread, which its
 *       supervisor restarts with backoff and its alarm (see {@link Forwarder}). If the restarted
 *       forwarder's write fails so again (nothing delivered in between), the batch is bisected as for
 *       an unclassified exception; each failure of the lone item counts an attempt and is rethrown,
 *       and at {@code max_delivery_attempts} the item is quarantined as "sink failure: ..." and
 *       delivery goes on.
 * </ul>
 *
 * A sink with {@link EncodedWrites} gets the items' bytes instead of decoded items; every rule
 * above applies to it unchanged. Records that are not channel envelopes, or whose item the codec
 * could not decode (see {@link PreparedBatch}; for a sink with {@link EncodedWrites}, the item it
 * refused as {@link EncodedWrites#undecodable}, a permanent rejection by index), are quarantined
 * with their raw bytes rather than blocking the queue. An id already in the quarantine (set aside
 * before a crash, acknowledgement lost) is not stored twice. Items an operator retried out of the
 * quarantine are reported to its {@link RetriedItems} as they are delivered or set aside again; one
 * set aside again carries its earlier attempts, first failure and ids.
 *
 * <p>Threading: owned by the forwarder thread.
 */
final class DeliveryAttempt<T> {

    private static final Logger log = LoggerFactory.getLogger(DeliveryAttempt.class);
    static final String OUTCOME_UNKNOWN = "outcome unknown: check the destination before retrying";
    static final String SINK_FAILURE = "sink failure: ";
    static final String CODEC_FAILURE = "codec failure: ";
    static final int MAX_REASON_CHARS = 500;
    static final int MAX_ERROR_CHARS = 4000;

    /**
     * What the forwarder does next: done; retry with backoff; stalled because the quarantine is full
     * (an operator must make room); stalled because the quarantine could not be written (the disk:
     * retried until a write succeeds).
     */
    enum Kind { DONE, RETRY, STALLED, QUARANTINE_UNWRITABLE }

    /** @param diskFull a storage failure that was a full disk ({@link DiskFull}) */
    record Outcome(Kind kind, String detail, boolean diskFull) {
        Outcome(Kind kind, String detail) {
            this(kind, detail, false);
        }
    }

    /** Ends an attempt early; carries no stack trace, it is control flow. */
    private static final class Stop extends Exception {
        final Kind kind;
        final boolean diskFull;

        Stop(Kind kind, String message) {
            this(kind, message, false);
        }

        Stop(Kind kind, String message, boolean diskFull) {
            super(message, null, false, false);
            this.kind = kind;
            this.diskFull = diskFull;
        }
    }

    /** Delivery history of a record not yet resolved; seeded from its envelope. */
    private static final class Tries {
        int attempts;
        long firstFailureMillis;
        long lastFailureMillis;
    }

    private final String connection;
    private final ChannelConfig config;
    private final Sink<T> sink;
    /** The sink, when it writes buffered items from their bytes; null otherwise. */
    private final EncodedWrites encodedSink;
    private final BufferReader reader;
    private final QuarantineStore quarantine;
    private final ChannelCounters counters;
    private final Clock clock;
    private final Map<Long, Tries> tries = new HashMap<>();
    private final WriteWindow window;
    private final SlowDestinationAlarm slow;
    private final LongSupplier nanoClock;
    /** A write failed with a JVM error and nothing was delivered since: the next such failure is narrowed. */
    private boolean jvmFailedBefore;

    /** Without the destination-slow alarm: see the constructor that takes one. */
    DeliveryAttempt(String connection, ChannelConfig config, Sink<T> sink, BufferReader reader,
                    QuarantineStore quarantine, ChannelCounters counters, Clock clock) {
        this(connection, config, sink, reader, quarantine, counters, clock,
                SlowDestinationAlarm.silent(connection, counters, clock), System::nanoTime);
    }

    /** With a write window of its own: see the constructor that takes one. */
    DeliveryAttempt(String connection, ChannelConfig config, Sink<T> sink, BufferReader reader,
                    QuarantineStore quarantine, ChannelCounters counters, Clock clock, SlowDestinationAlarm slow,
                    LongSupplier nanoClock) {
        this(connection, config, sink, reader, quarantine, counters, clock, slow, nanoClock,
                new WriteWindow(config.batchMaxItems()));
    }

    /**
     * @param slow      raised while timeouts keep writes below {@code batch_max_items}
     * @param nanoClock monotonic time, to measure how long writes take
     * @param window    how many items to write at a time; shared with the channel's {@link HandOffDelivery}
     */
    DeliveryAttempt(String connection, ChannelConfig config, Sink<T> sink, BufferReader reader,
                    QuarantineStore quarantine, ChannelCounters counters, Clock clock, SlowDestinationAlarm slow,
                    LongSupplier nanoClock, WriteWindow window) {
        this.window = window;
        this.slow = slow;
        this.nanoClock = nanoClock;
        this.connection = connection;
        this.config = config;
        this.sink = sink;
        this.encodedSink = sink instanceof EncodedWrites encoded ? encoded : null;
        this.reader = reader;
        this.quarantine = quarantine;
        this.counters = counters;
        this.clock = clock;
    }

    Outcome deliver(PreparedBatch<T> batch) {
        try {
            return deliverInOrder(batch);
        } finally {
            slow.update(window);
        }
    }

    /** Items written at a time now: {@code batch_max_items} unless writes timed out. */
    int windowItems() {
        return window.items();
    }

    private Outcome deliverInOrder(PreparedBatch<T> batch) {
        long head = batch.firstSequence();
        if (!tries.isEmpty()) {
            tries.keySet().removeIf(sequence -> sequence < head);
        }
        // Only this thread adds to the quarantine, and only records it has just resolved: when it is
        // empty now, no record of this batch can be in it.
        boolean anyQuarantined = quarantine.size() > 0;
        List<Decoded<T>> run = new ArrayList<>(batch.size());
        try {
            for (PreparedBatch.Entry<T> entry : batch.entries()) {
                if (anyQuarantined && quarantine.contains(entry.sequence())) {
                    writeRun(run);
                    run = new ArrayList<>();
                    acknowledge(entry.sequence());
                    continue;
                }
                if (entry instanceof Decoded<T> decoded) {
                    run.add(decoded);
                    continue;
                }
                writeRun(run);
                run = new ArrayList<>();
                if (entry instanceof PreparedBatch.CodecFailed<T> crashed) {
                    codecFailed(crashed);
                } else if (entry instanceof PreparedBatch.Undecodable<T> undecodable) {
                    ItemEnvelope envelope = undecodable.envelope();
                    setAside(entry.sequence(), envelope.item(), envelope.attempts(), envelope.firstFailureMillis(),
                            FailureClass.PERMANENT, EncodedWrites.UNDECODABLE, undecodable.error());
                } else {
                    byte[] payload = entry.record().payload();
                    setAside(entry.sequence(), payload, 0, 0, FailureClass.PERMANENT,
                            "not a store-and-forward item (unknown format)", "record of " + payload.length
                                    + " bytes without a channel envelope");
                }
                acknowledge(entry.sequence());
            }
            writeRun(run);
            jvmFailedBefore = false;
            return new Outcome(Kind.DONE, "");
        } catch (Stop stop) {
            return new Outcome(stop.kind, stop.getMessage(), stop.diskFull);
        }
    }

    /** Writes {@code run} in order, in pieces of at most the window's size. */
    private void writeRun(List<Decoded<T>> run) throws Stop {
        int from = 0;
        while (from < run.size()) {
            int to = Math.min(run.size(), from + window.items());
            writePiece(from == 0 && to == run.size() ? run : new ArrayList<>(run.subList(from, to)));
            from = to;
        }
    }

    private void writePiece(List<Decoded<T>> run) throws Stop {
        counters.deliveryAttempts.addAndGet(run.size());
        long started = nanoClock.getAsLong();
        try {
            if (encodedSink != null) {
                encodedSink.writeEncoded(new EnvelopedItems<>(run)); // the buffered records, not copies
            } else {
                List<T> values = new ArrayList<>(run.size());
                for (Decoded<T> item : run) {
                    values.add(item.value());
                }
                sink.write(values);
            }
        } catch (GatewayException | RuntimeException | Error e) {
            DeliveryPolicy.Verdict verdict = DeliveryPolicy.judge(e);
            switch (verdict.kind()) {
                case OUTAGE -> {
                    counters.error(verdict.reason(), clock.instant());
                    throw new Stop(Kind.RETRY, "transient: " + verdict.reason());
                }
                case MISCONFIGURED -> {
                    counters.error(verdict.reason(), clock.instant());
                    log.error("Destination {} is misconfigured ({}); fix the configuration, items stay buffered",
                            connection, verdict.reason());
                    throw new Stop(Kind.RETRY, "configuration: " + verdict.reason());
                }
                case NO_VERDICT -> {
                    if (verdict.timedOut() && run.size() > 1) {
                        timedOut(run, verdict.reason(), nanoClock.getAsLong() - started);
                    } else {
                        unknownOutcome(run, verdict.reason());
                    }
                }
                case REJECTED -> permanent(run, verdict.rejection());
                case SINK_BUG -> sinkFailed(run, e, verdict.reason());
                case FATAL -> jvmFailed(run, (Error) e, verdict.reason());
            }
            return;
        }
        window.succeeded(run.size(), nanoClock.getAsLong() - started);
        delivered(run, run.size());
    }

    /**
     * A write of more than one item ran out of time: one attempt with unknown outcome for each, the
     * capped ones at the head quarantined as for any unknown outcome, and the rest written again at
     * once at half the size.
     */
    private void timedOut(List<Decoded<T>> run, String error, long elapsedNanos) throws Stop {
        counters.error(error, clock.instant());
        boolean wasFull = !window.reduced();
        window.timedOut(run.size(), elapsedNanos);
        if (wasFull) {
            log.warn("A write of {} items to {} timed out ({}); writing fewer at a time until writes keep up",
                    run.size(), connection, error);
        }
        int capped = attemptWithoutVerdict(run, error);
        writeRun(new ArrayList<>(run.subList(capped, run.size())));
    }

    private void delivered(List<Decoded<T>> run, int count) throws Stop {
        long bytes = 0;
        boolean tried = !tries.isEmpty();
        for (Decoded<T> item : run) {
            bytes += item.envelope().itemLength();
            if (tried) {
                tries.remove(item.sequence());
            }
        }
        acknowledge(run.get(run.size() - 1).sequence());
        RetriedItems retried = quarantine.retried();
        if (!retried.isEmpty()) {
            for (Decoded<T> item : run) {
                if (!quarantine.contains(item.sequence())) {
                    retried.delivered(item.envelope().item());
                }
            }
        }
        counters.itemsDelivered.addAndGet(count);
        counters.bytesOut.add(bytes);
    }

    private void unknownOutcome(List<Decoded<T>> run, String error) throws Stop {
        counters.error(error, clock.instant());
        int capped = attemptWithoutVerdict(run, error);
        if (sink.idempotent()) {
            throw new Stop(Kind.RETRY, "outcome unknown (idempotent destination, retrying): " + error);
        }
        if (capped < run.size()) {
            throw new Stop(Kind.RETRY, "outcome unknown: " + error);
        }
    }

    /**
     * Counts one attempt without a verdict for each item of {@code run}; unless the sink is
     * idempotent, the items at its head that reached {@code max_delivery_attempts} are quarantined
     * as "outcome unknown" and acknowledged. Returns how many were.
     */
    private int attemptWithoutVerdict(List<Decoded<T>> run, String error) throws Stop {
        long now = clock.millis();
        for (Decoded<T> item : run) {
            failedOnce(item, now);
        }
        if (sink.idempotent()) {
            return 0;
        }
        int capped = 0;
        while (capped < run.size() && tries.get(run.get(capped).sequence()).attempts >= config.maxDeliveryAttempts()) {
            capped++;
        }
        for (int i = 0; i < capped; i++) {
            quarantineItem(run.get(i), FailureClass.UNKNOWN_OUTCOME, OUTCOME_UNKNOWN, error);
        }
        if (capped > 0) {
            acknowledge(run.get(capped - 1).sequence());
        }
        return capped;
    }

    /**
     * The sink threw something unclassified: bisect down to the item that crashes it, the items
     * before it delivered; that one is retried after backoff and quarantined at the attempt cap.
     */
    private void sinkFailed(List<Decoded<T>> run, Throwable e, String reason) throws Stop {
        counters.error(reason, clock.instant());
        if (run.size() > 1) {
            log.warn("Sink of {} threw {} writing {} items; writing them in halves to find the item it fails on",
                    connection, e.toString(), run.size());
            int middle = run.size() / 2;
            writeRun(new ArrayList<>(run.subList(0, middle)));
            writeRun(new ArrayList<>(run.subList(middle, run.size())));
            return;
        }
        Decoded<T> item = run.get(0);
        int attempts = failedOnce(item.sequence(), item.envelope(), clock.millis());
        log.error("Sink of {} threw {} writing item {} (attempt {} of {})", connection, e.toString(),
                item.sequence(), attempts, config.maxDeliveryAttempts(), e);
        if (attempts < config.maxDeliveryAttempts()) {
            throw new Stop(Kind.RETRY, reason);
        }
        quarantineItem(item, FailureClass.UNKNOWN_OUTCOME, reason, stackHead(e));
        acknowledge(item.sequence());
    }

    /**
     * The JVM failed during the write ({@code OutOfMemoryError}): rethrown at once the first time, so
     * the supervisor restarts the thread and raises its alarm; failing so again, narrowed as for a
     * sink bug, and the lone item that keeps failing so is quarantined at the cap.
     */
    private void jvmFailed(List<Decoded<T>> run, Error e, String reason) throws Stop {
        counters.error(reason, clock.instant());
        if (run.size() > 1 && !jvmFailedBefore) {
            jvmFailedBefore = true;
            throw e;
        }
        if (run.size() > 1) {
            log.warn("Sink of {} threw {} again writing {} items; writing them in halves to find an item it fails on",
                    connection, e.toString(), run.size());
            int middle = run.size() / 2;
            writeRun(new ArrayList<>(run.subList(0, middle)));
            writeRun(new ArrayList<>(run.subList(middle, run.size())));
            return;
        }
        Decoded<T> item = run.get(0);
        int attempts = failedOnce(item.sequence(), item.envelope(), clock.millis());
        if (attempts < config.maxDeliveryAttempts()) {
            jvmFailedBefore = true;
            throw e;
        }
        log.error("Sink of {} threw {} writing item {} alone {} times; setting it aside", connection, e.toString(),
                item.sequence(), attempts, e);
        quarantineItem(item, FailureClass.UNKNOWN_OUTCOME, reason, stackHead(e));
        acknowledge(item.sequence());
    }

    /**
     * The codec crashed decoding an item: an attempt; set aside at the cap (the caller acknowledges
     * it), else retried after backoff.
     */
    private void codecFailed(PreparedBatch.CodecFailed<T> entry) throws Stop {
        Throwable e = entry.error();
        String reason = CODEC_FAILURE + describe(e);
        counters.error(reason, clock.instant());
        int attempts = failedOnce(entry.sequence(), entry.envelope(), clock.millis());
        log.error("Codec of {} threw {} decoding item {} (attempt {} of {})", connection, e.toString(),
                entry.sequence(), attempts, config.maxDeliveryAttempts(), e);
        if (attempts < config.maxDeliveryAttempts()) {
            throw new Stop(Kind.RETRY, reason);
        }
        Tries t = tries.remove(entry.sequence());
        setAside(entry.sequence(), entry.envelope().item(), t.attempts, t.firstFailureMillis,
                FailureClass.PERMANENT, reason, stackHead(e));
    }

    /** {@code "sink failure: <class>: <message>"}, the quarantine reason of an item that crashes the sink. */
    static String sinkFailure(Throwable e) {
        return SINK_FAILURE + describe(e);
    }

    /** {@code <class>: <message>}, or the class alone when there is no message. */
    static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getName() : e.getClass().getName() + ": " + e.getMessage();
    }

    /** The exception and the top of its stack, for the quarantine entry's error text. */
    private static String stackHead(Throwable e) {
        StringBuilder text = new StringBuilder(e.toString());
        StackTraceElement[] stack = e.getStackTrace();
        for (int i = 0; i < Math.min(8, stack.length); i++) {
            text.append("\n\tat ").append(stack[i]);
        }
        return text.toString();
    }

    private void permanent(List<Decoded<T>> run, PermanentException e) throws Stop {
        counters.error(e.getMessage(), clock.instant());
        long now = clock.millis();
        Map<Integer, String> rejected = new HashMap<>();
        for (PermanentException.RejectedItem item : e.rejected()) {
            if (item.index() >= 0 && item.index() < run.size()) {
                rejected.put(item.index(), item.reason());
            }
        }
        if (rejected.isEmpty() || rejected.size() != e.rejected().size()) {
            bisect(run, e, now);
            return;
        }
        if (e.othersWritten()) {
            for (int i = 0; i < run.size(); i++) {
                if (rejected.containsKey(i)) {
                    failedOnce(run.get(i), now);
                    quarantineItem(run.get(i), FailureClass.PERMANENT, rejected.get(i), e.getMessage());
                }
            }
            delivered(run, run.size() - rejected.size());
            return;
        }
        List<Decoded<T>> good = new ArrayList<>();
        for (int i = 0; i < run.size(); i++) {
            if (rejected.containsKey(i)) {
                writeRun(good);
                good = new ArrayList<>();
                failedOnce(run.get(i), now);
                quarantineItem(run.get(i), FailureClass.PERMANENT, rejected.get(i), e.getMessage());
                acknowledge(run.get(i).sequence());
            } else {
                good.add(run.get(i));
            }
        }
        writeRun(good);
    }

    private void bisect(List<Decoded<T>> run, PermanentException e, long now) throws Stop {
        if (run.size() == 1) {
            Decoded<T> item = run.get(0);
            failedOnce(item, now);
            quarantineItem(item, FailureClass.PERMANENT, "rejected by the destination", e.getMessage());
            acknowledge(item.sequence());
            return;
        }
        int middle = run.size() / 2;
        writeRun(new ArrayList<>(run.subList(0, middle)));
        writeRun(new ArrayList<>(run.subList(middle, run.size())));
    }

    private void failedOnce(Decoded<T> item, long now) {
        failedOnce(item.sequence(), item.envelope(), now);
    }

    /** Counts one more failed attempt for the record; returns its attempts so far. */
    private int failedOnce(long sequence, ItemEnvelope envelope, long now) {
        Tries t = tries.computeIfAbsent(sequence, key -> {
            Tries seeded = new Tries();
            seeded.attempts = envelope.attempts();
            seeded.firstFailureMillis = envelope.firstFailureMillis();
            return seeded;
        });
        t.attempts++;
        if (t.firstFailureMillis == 0) {
            t.firstFailureMillis = now;
        }
        t.lastFailureMillis = now;
        return t.attempts;
    }

    private void quarantineItem(Decoded<T> item, FailureClass failureClass, String reason, String error) throws Stop {
        Tries t = tries.get(item.sequence());
        int attempts = t == null ? item.envelope().attempts() : t.attempts;
        long first = t == null ? item.envelope().firstFailureMillis() : t.firstFailureMillis;
        setAside(item.sequence(), item.envelope().item(), attempts, first, failureClass, reason, error);
        tries.remove(item.sequence());
    }

    private void setAside(long sequence, byte[] bytes, int attempts, long firstFailureMillis, FailureClass failureClass,
                          String reason, String error) throws Stop {
        if (quarantine.contains(sequence)) {
            return;
        }
        Instant now = clock.instant();
        Instant first = firstFailureMillis == 0 ? now : Instant.ofEpochMilli(firstFailureMillis);
        RetriedItems retried = quarantine.retried();
        Optional<RetriedItems.Pending> retry = retried.isEmpty() ? Optional.empty() : retried.find(bytes);
        QuarantineEntry fresh = new QuarantineEntry(sequence, failureClass, clip(reason, MAX_REASON_CHARS),
                clip(error == null ? "" : error, MAX_ERROR_CHARS), attempts, first, now, bytes.length);
        // retried by an operator and failed again: the history goes on from its first stay
        QuarantineEntry entry = retry.map(pending -> pending.carriedInto(fresh)).orElse(fresh);
        try {
            quarantine.add(entry, bytes);
        } catch (QuarantineFullException e) {
            throw new Stop(Kind.STALLED, e.getMessage());
        } catch (IOException e) {
            // not a full quarantine: the item stays at the head of the buffer, unacknowledged
            throw new Stop(Kind.QUARANTINE_UNWRITABLE, DiskFull.describe("item " + sequence
                    + " could not be written to the quarantine", e), DiskFull.causedBy(e));
        }
        retry.ifPresent(pending -> retried.failedAgain(pending, entry));
        counters.itemsQuarantined.incrementAndGet();
        log.warn("Quarantined item {} of {} ({}, {} attempts{}): {}", sequence, connection, reason, entry.attempts(),
                entry.previousIds().isEmpty() ? "" : ", retried before as " + entry.previousIds(), error);
    }

    /** Destinations can answer with whole payloads in their errors; the quarantine keeps a readable head. */
    private static String clip(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "… (" + (text.length() - max) + " more characters)";
    }

    private void acknowledge(long sequence) throws Stop {
        try {
            reader.acknowledge(sequence);
        } catch (BufferException e) {
            counters.error("acknowledging: " + e.getMessage(), clock.instant());
            throw new Stop(Kind.RETRY, "could not acknowledge delivered items (they will be delivered again): "
                    + e.getMessage());
        }
    }
}
