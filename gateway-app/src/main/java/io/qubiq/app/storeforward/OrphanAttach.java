package io.qubiq.app.storeforward;

import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.console.RequestFailure;
import io.qubiq.console.StoreForwardAccess.OrphanAction;
import io.qubiq.console.StoreForwardAccess.OrphanedChannel;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.storeforward.StoreForwardChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's attach of an orphaned store-and-forward directory to a running outbound connection
 * ({@code POST /api/v1/orphaned-channels/{name}/attach} with {@code {"connection": "<id>"}}, Edit
 * connections): the connection's channel takes the orphan's buffer and quarantine over as its own, live,
 * and delivers the orphan's items from their head, in order, each once.
 *
 * <p><b>The design, chosen as the simplest that is safe.</b> The target must be empty: no backlog and
 * nothing quarantined (checked with its forwarder stopped and producers held, so nothing slips in
 * between); otherwise the attach is refused (409) and the operator waits for it to drain. Then, inside
 * {@link StoreForwardChannel#swapStorage}: the target's empty {@code buffer/} and {@code quarantine/} are
 * moved aside, the orphan's are moved in (atomic renames in the same {@code connections/} directory), the
 * rest of the orphan's directory is deleted, and the channel opens them as at a start. No item is copied,
 * so none can be duplicated or lost by the attach itself; the buffer's own acknowledgement rules then give
 * delivery in order and once (at least once across a crash, as always).
 *
 * <p><b>Compatible kinds.</b> A channel directory names the kind that wrote it in its
 * {@value OrphanedChannels#KIND_FILE} file; an orphan of another kind is refused. An orphan from before
 * that file existed is accepted; an item the target's codec cannot read is quarantined as undecodable,
 * never dropped.
 *
 * <p><b>What a crash leaves.</b> Before the buffer moved: the orphan as it was (still listed at the next
 * start). After the buffer moved and before the quarantine did: the target owns the buffer (and delivers
 * it) and the orphan, listed again, holds its quarantine only; attach that once the target has drained.
 * The target's old, empty directories are left as {@code buffer.replaced}/{@code quarantine.replaced}
 * at worst. Sequence numbers are the orphan's from then on: they may be lower than the ones the target
 * had issued (no sink relies on them across channels).
 *
 * <p>Threading: one discard or attach at a time (synchronized on the orphan list).
 */
public final class OrphanAttach {

    private static final Logger log = LoggerFactory.getLogger(OrphanAttach.class);
    private static final String REPLACED = ".replaced";

    private final OrphanedChannels orphans;
    /** The outbound connections running now. */
    private final Supplier<Map<String, OutboundConnection<?>>> outbound;
    private final EventPublisher events;
    private final Clock clock;

    public OrphanAttach(OrphanedChannels orphans, Supplier<Map<String, OutboundConnection<?>>> outbound,
                        EventPublisher events, Clock clock) {
        this.orphans = orphans;
        this.outbound = outbound;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Attaches orphan {@code name} to outbound connection {@code target}.
     *
     * @throws RequestFailure.NotFound no such orphan, or no such outbound connection
     * @throws RequestFailure.Conflict another kind, an unreadable buffer, or the target holds items
     * @throws RequestFailure.Fault the directories could not be moved (the target runs on as it was)
     */
    public OrphanAction attach(String name, String target, String user, String from) {
        synchronized (orphans) {
            OrphanedChannel orphan = orphans.find(name).orElseThrow(() -> new RequestFailure.NotFound(
                    "no orphaned store-and-forward directory '" + name + "' (GET /api/v1/orphaned-channels lists them)"));
            OutboundConnection<?> connection = Optional.ofNullable(outbound.get().get(target)).orElseThrow(() ->
                    new RequestFailure.NotFound("no running outbound connection '" + target + "' to attach '" + name
                            + "' to; the running ones are " + outbound.get().keySet().stream().sorted().toList()));
            Path source = orphans.directory(name);
            Optional<String> kind = OrphanedChannels.kindOf(source);
            if (kind.isPresent() && !kind.get().equals(connection.kind().name())) {
                throw new RequestFailure.Conflict("orphan '" + name + "' was written by a " + kind.get()
                        + " connection; '" + target + "' is " + connection.kind().name() + ": attach it to a "
                        + kind.get() + " connection");
            }
            if (orphan.problem() != null) {
                throw new RequestFailure.Conflict("orphan '" + name + "' cannot be attached: " + orphan.problem());
            }
            Path destination = orphans.directory(target);
            try {
                connection.channel().swapStorage(new StoreForwardChannel.StorageSwap() {
                    @Override
                    public void check(long bufferedItems, int quarantined) {
                        if (bufferedItems > 0 || quarantined > 0) {
                            throw new RequestFailure.Conflict("'" + target + "' holds " + bufferedItems
                                    + " undelivered and " + quarantined + " quarantined items: an orphan is attached"
                                    + " only to an empty channel; wait until it has drained (and its quarantine is"
                                    + " empty), then attach again");
                        }
                    }

                    @Override
                    public void whileClosed() throws IOException {
                        takeOver(source, destination, "buffer");
                        takeOver(source, destination, "quarantine");
                        OrphanFiles.deleteTree(source);
                    }
                });
            } catch (RequestFailure e) {
                throw e;
            } catch (Exception e) {
                log.error("Orphan {} could not be attached to {}: {}", name, target, e.toString());
                throw new RequestFailure.Fault("orphan '" + name + "' could not be attached to '" + target + "': "
                        + e.getMessage() + "; the orphan's files are where they were (see the log)");
            } finally {
                if (!Files.exists(source)) {
                    orphans.remove(name);
                }
            }
            log.info("Orphan {} attached to outbound connection {} by {}: {} to deliver", name, target, user,
                    OrphanDiscard.describe(orphan));
            audit(orphan, target, user, from);
            return new OrphanAction(name, "attached", Math.max(0, orphan.bufferedItems()), orphan.quarantineEntries(),
                    OrphanDiscard.describe(orphan) + " now belong to '" + target + "' and are delivered from the"
                            + " oldest");
        }
    }

    /** Moves {@code source/part} to {@code destination/part}, the target's own (empty) one set aside first. */
    private static void takeOver(Path source, Path destination, String part) throws IOException {
        Path from = source.resolve(part);
        if (!Files.isDirectory(from)) {
            return;
        }
        Path to = destination.resolve(part);
        if (Files.exists(to)) {
            Path aside = destination.resolve(part + REPLACED);
            OrphanFiles.deleteTree(aside);
            OrphanFiles.move(to, aside);
        }
        OrphanFiles.move(from, to);
        OrphanFiles.deleteTree(destination.resolve(part + REPLACED));
    }

    private void audit(OrphanedChannel orphan, String target, String user, String from) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, from);
        details.put("connection", target);
        details.put("buffered_items", String.valueOf(orphan.bufferedItems()));
        details.put("quarantined_items", String.valueOf(orphan.quarantineEntries()));
        events.audit(new AuditEvent(clock.instant(), user, AuditAction.ORPHAN_ATTACH, orphan.connection(),
                "attached to " + target, details));
    }
}
