package io.qubiq.storeforward.quarantine;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Items an operator retried out of a quarantine that have not yet reached a verdict: put back on
 * the channel's buffer and waiting there to be delivered, or to fail again. The retry registers
 * each item ({@link #expect}) before it is requeued; the forwarder reports what became of it
 * ({@link #delivered}, {@link #failedAgain}), so the operator's answer can say which items were
 * delivered, which are still queued behind the backlog and which failed again at once (and why),
 * and an item that fails again keeps its history (attempts, first failure, previous ids).
 *
 * <p>An item is recognised by its bytes, the same the quarantine stored and the buffer holds: the
 * forwarder does not learn the buffer sequences a requeue was given. Identical items are matched in
 * the order they were registered; an identical item submitted by a producer and still buffered
 * ahead of the retried one takes its verdict (the destination received those same bytes either
 * way). In memory only: after a restart a retried item still buffered is an ordinary item, and if
 * it fails again it starts a new history. At most {@link #MAX_ITEMS} items and {@link #MAX_BYTES}
 * bytes are tracked; an item past those, or registered more than {@link #FORGET_AFTER} ago, is
 * delivered or quarantined as usual, without a verdict or history.
 *
 * <p>Threading: safe for concurrent operators and the forwarder; {@link #isEmpty} is lock-free so
 * the forwarder pays nothing while no retry is pending.
 */
public final class RetriedItems {

    static final int MAX_ITEMS = 10_000;
    static final long MAX_BYTES = 16L << 20;
    static final Duration FORGET_AFTER = Duration.ofHours(24);

    /** What became of one retried item. */
    public sealed interface Verdict {
        /** Still buffered, behind the backlog. */
        record Queued() implements Verdict {
        }

        /** Written to the destination. */
        record Delivered() implements Verdict {
        }

        /** Set aside again, as {@code entry} (its new id, reason and history). */
        record FailedAgain(QuarantineEntry entry) implements Verdict {
        }
    }

    /** One registered item: its entry before the retry, and what became of it. */
    public static final class Pending {
        private final QuarantineEntry entry;
        private final ByteBuffer key;
        private final long registeredNanos;
        private Verdict verdict = new Verdict.Queued();

        private Pending(QuarantineEntry entry, ByteBuffer key, long registeredNanos) {
            this.entry = entry;
            this.key = key;
            this.registeredNanos = registeredNanos;
        }

        /** The entry the item had in the quarantine before it was retried. */
        public QuarantineEntry entry() {
            return entry;
        }

        /**
         * {@code fresh}, the entry of this item quarantined again, with its history carried on: the
         * attempts of both stays added up, the earlier first failure, and the earlier ids.
         */
        public QuarantineEntry carriedInto(QuarantineEntry fresh) {
            List<Long> ids = new ArrayList<>(entry.previousIds());
            ids.add(entry.id());
            java.time.Instant first = entry.firstFailure().isBefore(fresh.firstFailure()) ? entry.firstFailure()
                    : fresh.firstFailure();
            return new QuarantineEntry(fresh.id(), fresh.failureClass(), fresh.reason(), fresh.error(),
                    (int) Math.min(Integer.MAX_VALUE, (long) entry.attempts() + fresh.attempts()), first,
                    fresh.lastFailure(), fresh.itemBytes(), ids);
        }
    }

    private final LongSupplier nanoClock;
    private final Map<ByteBuffer, ArrayDeque<Pending>> byItem = new HashMap<>();
    private volatile int size;
    private long bytes;
    private long forgotAtNanos;

    public RetriedItems() {
        this(System::nanoTime);
    }

    RetriedItems(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * Registers an item about to be requeued. Empty when the register is full: the item is then
     * retried without being followed.
     */
    public synchronized Optional<Pending> expect(QuarantineEntry entry, byte[] item) {
        forgetOld();
        if (size >= MAX_ITEMS || bytes + item.length > MAX_BYTES) {
            return Optional.empty();
        }
        ByteBuffer key = ByteBuffer.wrap(item.clone());
        Pending pending = new Pending(entry, key, nanoClock.getAsLong());
        byItem.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(pending);
        size++;
        bytes += item.length;
        return Optional.of(pending);
    }

    /** Takes back a registration whose requeue failed. */
    public synchronized void withdraw(Pending pending) {
        remove(pending);
    }

    /** The oldest registration waiting for these bytes, if any; it stays registered. */
    public synchronized Optional<Pending> find(byte[] item) {
        if (size == 0) {
            return Optional.empty();
        }
        ArrayDeque<Pending> queue = byItem.get(ByteBuffer.wrap(item));
        return queue == null ? Optional.empty() : Optional.ofNullable(queue.peekFirst());
    }

    /** The destination took an item with these bytes: the oldest registration for them is delivered. */
    public synchronized void delivered(byte[] item) {
        find(item).ifPresent(pending -> resolve(pending, new Verdict.Delivered()));
    }

    /** The registered item was quarantined again as {@code entry}. */
    public synchronized void failedAgain(Pending pending, QuarantineEntry entry) {
        resolve(pending, new Verdict.FailedAgain(entry));
    }

    /**
     * Waits up to {@code timeout} until every one of {@code pendings} has a verdict, and returns
     * each one's verdict then ({@link Verdict.Queued} for those still buffered), in the same order.
     */
    public synchronized List<Verdict> await(List<Pending> pendings, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pendings.stream().anyMatch(p -> p.verdict instanceof Verdict.Queued)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            Duration wait = Duration.ofNanos(left);
            wait(Math.max(1, wait.toMillis()));
        }
        List<Verdict> verdicts = new ArrayList<>(pendings.size());
        pendings.forEach(p -> verdicts.add(p.verdict));
        return verdicts;
    }

    private void resolve(Pending pending, Verdict verdict) {
        if (remove(pending)) {
            pending.verdict = verdict;
            notifyAll();
        }
    }

    private boolean remove(Pending pending) {
        ArrayDeque<Pending> queue = byItem.get(pending.key);
        if (queue == null || !queue.remove(pending)) {
            return false;
        }
        if (queue.isEmpty()) {
            byItem.remove(pending.key);
        }
        size--;
        bytes -= pending.key.capacity();
        return true;
    }

    private void forgetOld() {
        long now = nanoClock.getAsLong();
        if (now - forgotAtNanos < 60_000_000_000L || size == 0) {
            return; // a sweep at most once a minute, not once per item of a large retry
        }
        forgotAtNanos = now;
        long limit = FORGET_AFTER.toNanos();
        List<Pending> old = new ArrayList<>();
        for (ArrayDeque<Pending> queue : byItem.values()) {
            for (Iterator<Pending> it = queue.iterator(); it.hasNext(); ) {
                Pending pending = it.next();
                if (now - pending.registeredNanos > limit) {
                    old.add(pending);
                }
            }
        }
        old.forEach(this::remove);
    }
}
