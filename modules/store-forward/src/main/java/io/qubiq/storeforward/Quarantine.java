package io.qubiq.storeforward;

import io.qubiq.core.error.FailureClass;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.storeforward.quarantine.QuarantinePage;
import io.qubiq.storeforward.quarantine.QuarantineStore;
import io.qubiq.storeforward.quarantine.QuarantinedItem;
import io.qubiq.storeforward.quarantine.RetriedItems;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator queue of one channel (DESIGN.md rule 6): list and inspect quarantined items, retry
 * them (back onto the buffer, behind the current backlog) or drop them for good. Listing needs the
 * permission "View connections", retry and drop "Edit connections": the console checks those;
 * this class records who acted. Every retry and drop emits one {@link AuditEvent}.
 *
 * <p>Retry is crash-safe in the "never lose" direction: the item is appended and synced to the
 * buffer before its quarantine entry is removed, so a crash in between leaves it in both places
 * (delivered once more after an operator drops the leftover entry), never in neither.
 *
 * <p>Owned by its {@link StoreForwardChannel}, which it reaches only through a {@link Requeue}
 * callback and the forwarder's {@link Wakeups} (the dependency points one way).
 *
 * <p>Threading: safe for concurrent operators and the forwarder.
 */
public final class Quarantine<T> {

    private static final Logger log = LoggerFactory.getLogger(Quarantine.class);
    private static final int PREVIEW_CHARS = 2000;
    private static final int BATCH = 200;
    /** How long a retry waits for the forwarder's verdicts: long enough for an idle channel's first write. */
    static final Duration VERDICT_WAIT = Duration.ofSeconds(3);

    private final String connection;
    private final QuarantineStore store;
    private final ItemCodec<T> codec;
    private final Requeue requeue;
    private final Wakeups wakeups;
    private final EventPublisher events;
    private final Clock clock;
    private final Duration verdictWait;

    /**
     * Puts items from the quarantine back on the channel's buffer, durably, behind the current
     * backlog (what was handed off in memory first); the channel that owns this queue provides it.
     */
    @FunctionalInterface
    interface Requeue {
        void requeue(List<byte[]> items) throws ChannelFullException, ChannelException;
    }

    /** One entry with a readable rendering of its item. */
    public record Preview(QuarantineEntry entry, String preview, int itemBytes) {
    }

    /**
     * What a retry did, per requested id: each retried item is {@code delivered}, still {@code queued}
     * behind the backlog when the answer was given, or {@code failedAgain} at once (set aside again:
     * its new entry, with the new reason and the history); {@code notRetried} could not be put back
     * (not in the quarantine, the buffer full or failing) and stays where it was.
     */
    public record RetryResult(List<Long> delivered, List<Long> queued, Map<Long, QuarantineEntry> failedAgain,
                              Map<Long, String> notRetried) {
        public RetryResult {
            delivered = List.copyOf(delivered);
            queued = List.copyOf(queued);
            failedAgain = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(failedAgain));
            notRetried = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(notRetried));
        }

        /** Every id that went back on the channel, whatever became of it. */
        public List<Long> requeued() {
            List<Long> ids = new ArrayList<>(delivered);
            ids.addAll(queued);
            ids.addAll(failedAgain.keySet());
            return ids.stream().sorted().toList();
        }

        /** True when every requested item was delivered or is queued: nothing failed again or stayed. */
        public boolean allWell() {
            return failedAgain.isEmpty() && notRetried.isEmpty();
        }
    }

    /** What a drop did: the ids acted on, and the ones that failed with why. */
    public record BulkResult(List<Long> done, Map<Long, String> failed) {
        public BulkResult {
            done = List.copyOf(done);
            failed = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(failed));
        }
    }

    /**
     * @param requeue puts retried items back on the channel's buffer
     * @param wakeups the channel's forwarder, woken when an operator acted
     */
    Quarantine(String connection, QuarantineStore store, ItemCodec<T> codec, Requeue requeue, Wakeups wakeups,
               EventPublisher events, Clock clock) {
        this(connection, store, codec, requeue, wakeups, events, clock, VERDICT_WAIT);
    }

    /** @param verdictWait how long a retry waits for its items' verdicts before it answers */
    Quarantine(String connection, QuarantineStore store, ItemCodec<T> codec, Requeue requeue, Wakeups wakeups,
               EventPublisher events, Clock clock, Duration verdictWait) {
        this.verdictWait = verdictWait;
        this.connection = connection;
        this.store = store;
        this.codec = codec;
        this.requeue = requeue;
        this.wakeups = wakeups;
        this.events = events;
        this.clock = clock;
    }

    /** Newest first; {@code failureClass} empty for all. */
    public QuarantinePage list(int offset, int limit, Optional<FailureClass> failureClass) {
        if (offset < 0 || limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("offset must be >= 0 and limit between 1 and 1000, were " + offset
                    + " and " + limit);
        }
        return store.list(offset, limit, failureClass);
    }

    public Optional<Preview> get(long id) throws IOException {
        Optional<QuarantinedItem> item = store.get(id);
        return item.map(found -> new Preview(found.entry(), preview(found.item()), found.item().length));
    }

    public int size() {
        return store.size();
    }

    private String preview(byte[] bytes) {
        String text;
        try {
            text = codec.preview(codec.decode(bytes));
        } catch (PermanentException | RuntimeException e) {
            text = "(cannot be decoded: " + e.getMessage() + ") " + new String(bytes, StandardCharsets.UTF_8);
        }
        return text.length() > PREVIEW_CHARS ? text.substring(0, PREVIEW_CHARS) + "…" : text;
    }

    /**
     * Puts the selected items back on the buffer, in id order, behind the current backlog, and
     * removes them from the quarantine; then waits up to a few seconds ({@link #VERDICT_WAIT}) for
     * what the forwarder makes of them, and answers per item: delivered, still queued, or failed again
     * at once (with its new entry). Items are requeued in chunks: one append and one fsync per chunk.
     * An item that fails again keeps its history (see {@link RetriedItems}).
     */
    public RetryResult retry(List<Long> ids, String user) {
        return retry(ids, user, "");
    }

    /** As {@link #retry(List, String)}, journaling {@code from} (the operator's remote address) too. */
    public RetryResult retry(List<Long> ids, String user, String remote) {
        Map<Long, RetriedItems.Pending> followed = new LinkedHashMap<>();
        List<Long> unfollowed = new ArrayList<>();
        Map<Long, String> failed = new LinkedHashMap<>();
        List<Long> sorted = ids.stream().distinct().sorted().toList();
        RetriedItems retried = store.retried();
        for (int from = 0; from < sorted.size(); from += BATCH) {
            List<Long> chunkIds = new ArrayList<>();
            List<byte[]> chunk = new ArrayList<>();
            Map<Long, RetriedItems.Pending> chunkPending = new LinkedHashMap<>();
            for (long id : sorted.subList(from, Math.min(sorted.size(), from + BATCH))) {
                try {
                    Optional<QuarantinedItem> item = store.get(id);
                    if (item.isEmpty()) {
                        failed.put(id, "not in the quarantine");
                    } else {
                        chunkIds.add(id);
                        chunk.add(item.get().item());
                        // registered before the requeue: the forwarder may deliver it at once
                        retried.expect(item.get().entry(), item.get().item())
                                .ifPresent(pending -> chunkPending.put(id, pending));
                    }
                } catch (IOException e) {
                    failed.put(id, e.getMessage());
                }
            }
            try {
                requeue.requeue(chunk);
            } catch (ChannelFullException | ChannelException e) {
                chunkPending.values().forEach(retried::withdraw);
                chunkIds.forEach(id -> failed.put(id, e.getMessage()));
                continue;
            }
            for (long id : chunkIds) {
                try {
                    store.remove(id);
                    if (chunkPending.containsKey(id)) {
                        followed.put(id, chunkPending.get(id));
                    } else {
                        unfollowed.add(id);
                    }
                } catch (IOException e) {
                    chunkPending.computeIfPresent(id, (k, pending) -> {
                        retried.withdraw(pending);
                        return null;
                    });
                    failed.put(id, "requeued, but the quarantine entry could not be removed (drop it): "
                            + e.getMessage());
                }
            }
        }
        List<Long> done = new ArrayList<>(followed.keySet());
        done.addAll(unfollowed);
        finish(AuditAction.QUARANTINE_RETRY, user, remote, done.stream().sorted().toList(), failed, "retried");
        return verdicts(followed, unfollowed, failed);
    }

    private RetryResult verdicts(Map<Long, RetriedItems.Pending> followed, List<Long> unfollowed,
                                 Map<Long, String> failed) {
        List<Long> delivered = new ArrayList<>();
        List<Long> queued = new ArrayList<>(unfollowed);
        Map<Long, QuarantineEntry> failedAgain = new LinkedHashMap<>();
        List<RetriedItems.Verdict> verdicts;
        try {
            verdicts = store.retried().await(new ArrayList<>(followed.values()), verdictWait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            verdicts = followed.values().stream().map(p -> (RetriedItems.Verdict) new RetriedItems.Verdict.Queued())
                    .toList();
        }
        int i = 0;
        for (long id : followed.keySet()) {
            RetriedItems.Verdict verdict = verdicts.get(i++);
            if (verdict instanceof RetriedItems.Verdict.FailedAgain again) {
                failedAgain.put(id, again.entry());
            } else if (verdict instanceof RetriedItems.Verdict.Delivered) {
                delivered.add(id);
            } else {
                queued.add(id);
            }
        }
        queued.sort(null);
        if (!failedAgain.isEmpty()) {
            log.warn("{} of {} item(s) retried from the quarantine of {} failed again at once: {}", failedAgain.size(),
                    followed.size() + unfollowed.size(), connection, failedAgain.values().stream()
                            .map(e -> e.previousIds().get(e.previousIds().size() - 1) + " -> " + e.id() + " ("
                                    + e.reason() + ")").toList());
        }
        return new RetryResult(delivered, queued, failedAgain, failed);
    }

    public RetryResult retryAll(String user) {
        return retry(allIds(), user, "");
    }

    public RetryResult retryAll(String user, String from) {
        return retry(allIds(), user, from);
    }

    /**
     * Removes the selected items for good, and reports them to the loss ledger as the user's
     * {@link LossReason#OPERATOR_DROP}.
     */
    public BulkResult drop(List<Long> ids, String user) {
        return drop(ids, user, "");
    }

    /** As {@link #drop(List, String)}, journaling {@code from} (the operator's remote address) too. */
    public BulkResult drop(List<Long> ids, String user, String from) {
        List<Long> done = new ArrayList<>();
        Map<Long, String> failed = new LinkedHashMap<>();
        List<Long> sorted = ids.stream().distinct().sorted().toList();
        Map<Long, QuarantineEntry> known = entries(sorted);
        List<QuarantineEntry> dropped = new ArrayList<>();
        long droppedBytes = 0;
        for (long id : sorted) {
            try {
                if (store.remove(id)) {
                    done.add(id);
                    Optional.ofNullable(known.get(id)).ifPresent(dropped::add);
                    droppedBytes += Optional.ofNullable(known.get(id)).map(QuarantineEntry::itemBytes).orElse(0);
                } else {
                    failed.put(id, "not in the quarantine");
                }
            } catch (IOException e) {
                failed.put(id, e.getMessage());
            }
        }
        finish(AuditAction.QUARANTINE_DROP, user, from, done, failed, "dropped", DroppedItems.describe(dropped));
        if (!done.isEmpty()) {
            events.lost(DataLoss.of(clock.instant(), "quarantine", connection, LossReason.OPERATOR_DROP, done.size(),
                    droppedBytes, "dropped from the quarantine: ids " + abbreviate(done)).by(user));
        }
        return new BulkResult(done, failed);
    }

    /** The selected entries, read from the quarantine's listing (no item is read). */
    private Map<Long, QuarantineEntry> entries(List<Long> ids) {
        java.util.Set<Long> wanted = new java.util.HashSet<>(ids);
        Map<Long, QuarantineEntry> found = new java.util.HashMap<>();
        int offset = 0;
        while (found.size() < wanted.size()) {
            QuarantinePage page = store.list(offset, BATCH, Optional.empty());
            page.entries().stream().filter(entry -> wanted.contains(entry.id()))
                    .forEach(entry -> found.put(entry.id(), entry));
            if (page.entries().size() < BATCH) {
                break;
            }
            offset += BATCH;
        }
        return found;
    }

    public BulkResult dropAll(String user) {
        return drop(allIds(), user, "");
    }

    public BulkResult dropAll(String user, String from) {
        return drop(allIds(), user, from);
    }

    private List<Long> allIds() {
        List<Long> ids = new ArrayList<>();
        int offset = 0;
        while (true) {
            QuarantinePage page = store.list(offset, BATCH, Optional.empty());
            page.entries().forEach(entry -> ids.add(entry.id()));
            if (page.entries().size() < BATCH) {
                return ids;
            }
            offset += BATCH;
        }
    }

    private void finish(AuditAction action, String user, String from, List<Long> done, Map<Long, String> failed,
                        String verb) {
        finish(action, user, from, done, failed, verb, Map.of());
    }

    private void finish(AuditAction action, String user, String from, List<Long> done, Map<Long, String> failed,
                        String verb, Map<String, String> what) {
        Map<String, String> details = new LinkedHashMap<>();
        if (!from.isEmpty()) {
            details.put(AuditAction.DETAIL_FROM, from);
        }
        details.put("connection", connection);
        details.put("count", String.valueOf(done.size()));
        details.put("ids", abbreviate(done));
        details.putAll(what);
        if (!failed.isEmpty()) {
            details.put("failed", String.valueOf(failed.size()));
            details.put("failed_ids", abbreviate(new ArrayList<>(failed.keySet())));
        }
        String outcome = failed.isEmpty() ? verb : verb + " with failures";
        events.audit(new AuditEvent(clock.instant(), user, action, "connection/" + connection + "/quarantine", outcome,
                details));
        log.info("{} {} {} quarantined item(s) of {}{}", user, verb, done.size(), connection,
                failed.isEmpty() ? "" : "; " + failed.size() + " failed: " + failed);
        if (!done.isEmpty()) {
            wakeups.signal(Wakeups.Reason.OPERATOR);
        }
    }

    private static String abbreviate(List<Long> ids) {
        if (ids.size() <= 50) {
            return ids.toString();
        }
        return ids.subList(0, 50) + " and " + (ids.size() - 50) + " more";
    }
}
