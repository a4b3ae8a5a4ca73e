package io.qubiq.app.storeforward;

import io.qubiq.console.RequestFailure;
import io.qubiq.console.StoreForwardAccess;
import io.qubiq.core.error.FailureClass;
import io.qubiq.storeforward.Quarantine;
import io.qubiq.storeforward.StoreForwardChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import io.qubiq.console.StoreForwardAccess.OrphanAction;
import io.qubiq.console.StoreForwardAccess.OrphanedChannel;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Optional;

/**
 * The console's access to every store-and-forward channel and its quarantine: status and listing, and the
 * operator's retry and drop (each audited by the quarantine with the user and remote address), and the
 * orphaned directories with their discard and attach ({@link OrphanDiscard}, {@link OrphanAttach}).
 */
public final class ChannelsAccess implements StoreForwardAccess {

    /** The channels running now (outbound connections come and go while the gateway runs). */
    private final Supplier<Map<String, StoreForwardChannel<?>>> channels;

    private final Optional<OrphanedChannels> orphans;
    private final Optional<OrphanDiscard> discard;
    private final Optional<OrphanAttach> attach;

    public ChannelsAccess(Map<String, StoreForwardChannel<?>> channels) {
        Map<String, StoreForwardChannel<?>> fixed = Map.copyOf(channels);
        this.channels = () -> fixed;
        this.orphans = Optional.empty();
        this.discard = Optional.empty();
        this.attach = Optional.empty();
    }

    /**
     * @param orphans the store-and-forward directories no channel owns, found at start, with what an operator
     *                may do about them
     */
    public ChannelsAccess(Supplier<Map<String, StoreForwardChannel<?>>> channels, OrphanedChannels orphans,
                          OrphanDiscard discard, OrphanAttach attach) {
        this.channels = channels;
        this.orphans = Optional.of(orphans);
        this.discard = Optional.of(discard);
        this.attach = Optional.of(attach);
    }

    @Override
    public List<OrphanedChannel> orphans() {
        return orphans.map(OrphanedChannels::list).orElse(List.of());
    }

    @Override
    public OrphanAction discardOrphan(String name, String confirm, String comment, String user, String from) {
        return discard.map(d -> d.discard(name, confirm, comment, user, from))
                .orElseGet(() -> StoreForwardAccess.super.discardOrphan(name, confirm, comment, user, from));
    }

    @Override
    public OrphanAction attachOrphan(String name, String connection, String user, String from) {
        return attach.map(a -> a.attach(name, connection, user, from))
                .orElseGet(() -> StoreForwardAccess.super.attachOrphan(name, connection, user, from));
    }

    @Override
    public List<Channel> channels() {
        Map<String, StoreForwardChannel<?>> now = channels.get();
        return now.keySet().stream().sorted().map(id -> ChannelReports.channel(now.get(id).status()))
                .toList();
    }

    @Override
    public Optional<Channel> channel(String connection) {
        return Optional.ofNullable(channels.get().get(connection)).map(c -> ChannelReports.channel(c.status()));
    }

    @Override
    public QuarantinePage quarantine(String connection, int offset, int limit, Optional<String> failureClass) {
        StoreForwardChannel<?> channel = require(connection);
        Optional<FailureClass> filter = failureClass.map(ChannelsAccess::failureClass);
        try {
            return ChannelReports.page(quarantineOf(channel).list(offset, limit, filter));
        } catch (IllegalArgumentException e) {
            throw new RequestFailure.InvalidRequest(e.getMessage());
        }
    }

    @Override
    public Optional<QuarantinePreview> quarantineEntry(String connection, long id) {
        try {
            return quarantineOf(require(connection)).get(id).map(ChannelReports::preview);
        } catch (IOException e) {
            throw new UncheckedIOException("reading quarantined item " + id + " of " + connection, e);
        }
    }

    @Override
    public ActionResult retry(String connection, Selection selection, String user, String from) {
        Quarantine<?> quarantine = quarantineOf(require(connection));
        Quarantine.RetryResult result = selection.all() ? quarantine.retryAll(user, from)
                : quarantine.retry(selection.ids(), user, from);
        List<ItemResult> items = new ArrayList<>();
        result.delivered().forEach(id -> items.add(new ItemResult(id, true, "delivered", "delivered")));
        result.queued().forEach(id -> items.add(new ItemResult(id, true, "queued",
                "queued: back at the tail of the channel, behind the items buffered before it")));
        result.failedAgain().forEach((id, entry) -> items.add(new ItemResult(id, false, "failed_again",
                Optional.of(entry.id()), "failed again at once, quarantined as item " + entry.id() + " ("
                        + entry.attempts() + " attempts since " + entry.firstFailure() + "): " + entry.reason())));
        result.notRetried().forEach((id, reason) -> items.add(new ItemResult(id, false, "not_retried", reason)));
        items.sort(Comparator.comparingLong(ItemResult::id));
        return new ActionResult(connection, "retry", items);
    }

    @Override
    public ActionResult drop(String connection, Selection selection, String user, String from) {
        Quarantine<?> quarantine = quarantineOf(require(connection));
        Quarantine.BulkResult result = selection.all() ? quarantine.dropAll(user, from)
                : quarantine.drop(selection.ids(), user, from);
        List<ItemResult> items = new ArrayList<>();
        result.done().forEach(id -> items.add(new ItemResult(id, true, "dropped", "dropped for good")));
        result.failed().forEach((id, reason) -> items.add(new ItemResult(id, false, "not_dropped", reason)));
        items.sort(Comparator.comparingLong(ItemResult::id));
        return new ActionResult(connection, "drop", items);
    }

    private StoreForwardChannel<?> require(String connection) {
        StoreForwardChannel<?> channel = channels.get().get(connection);
        if (channel == null) {
            throw new RequestFailure.NotFound("no store-and-forward channel for connection '" + connection + "'");
        }
        return channel;
    }

    /** The channel's quarantine; a channel that did not start (see /health for why) has none to show. */
    private static Quarantine<?> quarantineOf(StoreForwardChannel<?> channel) {
        try {
            return channel.quarantine();
        } catch (IllegalStateException e) {
            throw new RequestFailure.Conflict("the store-and-forward channel of '" + channel.connection()
                    + "' is not running, so its quarantine cannot be read; /health says why");
        }
    }

    private static FailureClass failureClass(String raw) {
        try {
            return FailureClass.valueOf(raw.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new RequestFailure.InvalidRequest("class must be permanent or unknown_outcome, got '" + raw + "'");
        }
    }
}
