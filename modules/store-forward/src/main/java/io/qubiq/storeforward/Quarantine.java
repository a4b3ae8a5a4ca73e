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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
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
 * <p>Threading: safe for concurrent operators and the forwarder.
 */
public final class Quarantine<T> {

    private static final Logger log = LoggerFactory.getLogger(Quarantine.class);
    private static final int PREVIEW_CHARS = 2000;
    private static final int BATCH = 200;

    private final String connection;
    private final QuarantineStore store;
    private final ItemCodec<T> codec;
    private final StoreForwardChannel<T> channel;
    private final EventPublisher events;
    private final Clock clock;

    /** One entry with a readable rendering of its item. */
    public record Preview(QuarantineEntry entry, String preview, int itemBytes) {
    }

    /** What a retry or drop did: the ids acted on, and the ones that failed with why. */
    public record BulkResult(List<Long> done, Map<Long, String> failed) {
        public BulkResult {
            done = List.copyOf(done);
            failed = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(failed));
        }
    }

    Quarantine(String connection, QuarantineStore store, ItemCodec<T> codec, StoreForwardChannel<T> channel,
               EventPublisher events, Clock clock) {
        this.connection = connection;
        this.store = store;
        this.codec = codec;
        this.channel = channel;
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
     * Puts the selected items back on the buffer, in id order, and removes them from the quarantine.
     * Items are requeued in chunks: one append and one fsync per chunk.
     */
    public BulkResult retry(List<Long> ids, String user) {
        return retry(ids, user, "");
    }

    /** As {@link #retry(List, String)}, journaling {@code from} (the operator's remote address) too. */
    public BulkResult retry(List<Long> ids, String user, String remote) {
        List<Long> done = new ArrayList<>();
        Map<Long, String> failed = new LinkedHashMap<>();
        List<Long> sorted = ids.stream().distinct().sorted().toList();
        for (int from = 0; from < sorted.size(); from += BATCH) {
            List<Long> chunkIds = new ArrayList<>();
            List<byte[]> chunk = new ArrayList<>();
            for (long id : sorted.subList(from, Math.min(sorted.size(), from + BATCH))) {
                try {
                    Optional<QuarantinedItem> item = store.get(id);
                    if (item.isEmpty()) {
                        failed.put(id, "not in the quarantine");
                    } else {
                        chunkIds.add(id);
                        chunk.add(item.get().item());
                    }
                } catch (IOException e) {
                    failed.put(id, e.getMessage());
                }
            }
            try {
                channel.requeue(chunk);
            } catch (ChannelFullException | ChannelException e) {
                chunkIds.forEach(id -> failed.put(id, e.getMessage()));
                continue;
            }
            for (long id : chunkIds) {
                try {
                    store.remove(id);
                    done.add(id);
                } catch (IOException e) {
                    failed.put(id, "requeued, but the quarantine entry could not be removed (drop it): "
                            + e.getMessage());
                }
            }
        }
        finish(AuditAction.QUARANTINE_RETRY, user, remote, done, failed, "retried");
        return new BulkResult(done, failed);
    }

    public BulkResult retryAll(String user) {
        return retry(allIds(), user, "");
    }

    public BulkResult retryAll(String user, String from) {
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
        Map<Long, Integer> itemBytes = itemBytes(sorted);
        long droppedBytes = 0;
        for (long id : sorted) {
            try {
                if (store.remove(id)) {
                    done.add(id);
                    droppedBytes += itemBytes.getOrDefault(id, 0);
                } else {
                    failed.put(id, "not in the quarantine");
                }
            } catch (IOException e) {
                failed.put(id, e.getMessage());
            }
        }
        finish(AuditAction.QUARANTINE_DROP, user, from, done, failed, "dropped");
        if (!done.isEmpty()) {
            events.lost(DataLoss.of(clock.instant(), "quarantine", connection, LossReason.OPERATOR_DROP, done.size(),
                    droppedBytes, "dropped from the quarantine: ids " + abbreviate(done)).by(user));
        }
        return new BulkResult(done, failed);
    }

    /** The item sizes of the selected entries, read from the quarantine's listing (no item is read). */
    private Map<Long, Integer> itemBytes(List<Long> ids) {
        java.util.Set<Long> wanted = new java.util.HashSet<>(ids);
        Map<Long, Integer> sizes = new java.util.HashMap<>();
        int offset = 0;
        while (sizes.size() < wanted.size()) {
            QuarantinePage page = store.list(offset, BATCH, Optional.empty());
            page.entries().stream().filter(entry -> wanted.contains(entry.id()))
                    .forEach(entry -> sizes.put(entry.id(), entry.itemBytes()));
            if (page.entries().size() < BATCH) {
                break;
            }
            offset += BATCH;
        }
        return sizes;
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
        Map<String, String> details = new LinkedHashMap<>();
        if (!from.isEmpty()) {
            details.put(AuditAction.DETAIL_FROM, from);
        }
        details.put("count", String.valueOf(done.size()));
        details.put("ids", abbreviate(done));
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
            channel.wakeups.signal(Wakeups.Reason.OPERATOR);
        }
    }

    private static String abbreviate(List<Long> ids) {
        if (ids.size() <= 50) {
            return ids.toString();
        }
        return ids.subList(0, 50) + " and " + (ids.size() - 50) + " more";
    }
}
