package io.qubiq.app.storeforward;

import io.qubiq.console.RequestFailure;
import io.qubiq.console.StoreForwardAccess.OrphanAction;
import io.qubiq.console.StoreForwardAccess.OrphanedChannel;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's discard of an orphaned store-and-forward directory ({@code POST
 * /api/v1/orphaned-channels/{name}/discard}, Edit connections): its buffer and quarantine are deleted,
 * and every item they held is a loss in the ledger ({@link LossReason#ORPHAN_DISCARDED}, with the user)
 * and the action an audit entry.
 *
 * <p><b>Order, so a crash never loses an item uncounted:</b>
 * <ol>
 *   <li>the orphan is measured now (buffered items and bytes, quarantined items and bytes);</li>
 *   <li>its losses are recorded in the ledger and fsynced ({@code recordDurably}); if that fails the
 *       discard is refused and nothing is deleted;</li>
 *   <li>the marker {@value OrphanedChannels#DISCARDED} is written durably in its directory;</li>
 *   <li>the directory is deleted, marker last.</li>
 * </ol>
 * A crash after step 3 leaves a directory with the marker: the next start deletes the rest and neither
 * lists nor counts it again ({@link OrphanedChannels#scan}). A crash between steps 2 and 3 (the
 * milliseconds between two fsyncs) leaves the orphan whole and listed with its loss already in the
 * ledger: discarding it again counts it twice, an over-count, never an uncounted loss. The same holds
 * when the ledger could not be written: its entry stays pending and is written later.
 *
 * <p>Threading: one discard or attach at a time (synchronized on the orphan list).
 */
public final class OrphanDiscard {

    private static final Logger log = LoggerFactory.getLogger(OrphanDiscard.class);

    /** Where losses go, returning once they are on disk. */
    @FunctionalInterface
    public interface DurableLosses {
        void recordDurably(DataLoss loss) throws IOException;
    }

    private final OrphanedChannels orphans;
    private final DurableLosses losses;
    private final EventPublisher events;
    private final Clock clock;
    private final Consumer<Path> delete;

    public OrphanDiscard(OrphanedChannels orphans, DurableLosses losses, EventPublisher events, Clock clock) {
        this(orphans, losses, events, clock, OrphanFiles::deleteTree);
    }

    /** @param delete deletes the orphan's directory (a test makes it fail half way, as a crash would) */
    OrphanDiscard(OrphanedChannels orphans, DurableLosses losses, EventPublisher events, Clock clock,
                  Consumer<Path> delete) {
        this.orphans = orphans;
        this.losses = losses;
        this.events = events;
        this.clock = clock;
        this.delete = delete;
    }

    /**
     * Discards the orphan {@code name}; {@code confirm} must repeat its name.
     *
     * @throws RequestFailure.NotFound no such orphan is listed
     * @throws RequestFailure.InvalidRequest the confirmation does not name it
     * @throws RequestFailure.Fault the ledger could not be written or the directory not deleted
     */
    public OrphanAction discard(String name, String confirm, String comment, String user, String from) {
        synchronized (orphans) {
            OrphanedChannel orphan = orphans.find(name).orElseThrow(() -> new RequestFailure.NotFound(
                    "no orphaned store-and-forward directory '" + name + "' (GET /api/v1/orphaned-channels lists them)"));
            if (!name.equals(confirm)) {
                throw new RequestFailure.InvalidRequest("to discard orphan '" + name + "' send {\"confirm\": \"" + name
                        + "\"}: its " + describe(orphan) + " are deleted and counted as lost");
            }
            Path dir = orphans.directory(name);
            String why = "orphaned store-and-forward directory discarded by " + user
                    + (comment.isBlank() ? "" : ": " + comment);
            try {
                for (DataLoss loss : losses(orphan, user, why)) {
                    losses.recordDurably(loss);
                }
            } catch (IOException e) {
                throw new RequestFailure.Fault("orphan '" + name + "' was not discarded: its loss could not be"
                        + " recorded (" + e.getMessage() + "); nothing was deleted");
            }
            try {
                OrphanFiles.writeDurably(dir.resolve(OrphanedChannels.DISCARDED), why + "\n");
                delete.accept(dir);
            } catch (IOException | RuntimeException e) {
                log.error("Orphan {}: its loss is in the ledger but its directory {} could not be deleted ({}); the"
                        + " next start deletes it", name, dir, e.toString());
                throw new RequestFailure.Fault("orphan '" + name + "' is counted as lost but " + dir
                        + " could not be deleted (" + e.getMessage() + "); the next start deletes it");
            } finally {
                orphans.remove(name);
            }
            log.warn("Orphan {} discarded by {}: {} deleted and recorded in the loss ledger", name, user,
                    describe(orphan));
            audit(orphan, user, from, comment);
            return new OrphanAction(name, "discarded", Math.max(0, orphan.bufferedItems()),
                    orphan.quarantineEntries(), describe(orphan) + " deleted and recorded as lost (orphan_discarded)");
        }
    }

    private java.util.List<DataLoss> losses(OrphanedChannel orphan, String user, String why) {
        java.util.List<DataLoss> list = new java.util.ArrayList<>();
        if (orphan.bufferedItems() > 0) {
            list.add(DataLoss.of(clock.instant(), "channel", orphan.connection(), LossReason.ORPHAN_DISCARDED,
                    orphan.bufferedItems(), orphan.bufferedBytes(), why).by(user));
        } else if (orphan.bufferedItems() < 0) {
            // an unreadable buffer: its items cannot be counted, its segment files' bytes can
            long bytes = OrphanedChannels.segmentBytes(orphans.directory(orphan.connection()));
            if (bytes > 0) {
                list.add(DataLoss.of(clock.instant(), "channel", orphan.connection(), LossReason.ORPHAN_DISCARDED,
                        0, bytes, why + " (an unreadable buffer, counted by its segment files' bytes: "
                                + orphan.problem() + ")").by(user));
            }
        }
        if (orphan.quarantineEntries() > 0) {
            list.add(DataLoss.of(clock.instant(), "quarantine", orphan.connection(), LossReason.ORPHAN_DISCARDED,
                    orphan.quarantineEntries(), orphan.quarantineBytes(), why).by(user));
        }
        return list;
    }

    private void audit(OrphanedChannel orphan, String user, String from, String comment) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, from);
        details.put("buffered_items", String.valueOf(orphan.bufferedItems()));
        details.put("buffered_bytes", String.valueOf(orphan.bufferedBytes()));
        details.put("quarantined_items", String.valueOf(orphan.quarantineEntries()));
        Optional.of(comment).filter(c -> !c.isBlank()).ifPresent(c -> details.put("comment", c));
        events.audit(new AuditEvent(clock.instant(), user, AuditAction.ORPHAN_DISCARD, orphan.connection(),
                "discarded", details));
    }

    static String describe(OrphanedChannel orphan) {
        String buffered = orphan.bufferedItems() < 0 ? "unreadable buffer" : orphan.bufferedItems() + " buffered items";
        return buffered + " and " + orphan.quarantineEntries() + " quarantined items";
    }
}
