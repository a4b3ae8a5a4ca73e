package io.qubiq.audit;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.AuditNotJournaledAlarm;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.sink.Sink;
import io.qubiq.core.text.LogSafe;
import io.qubiq.storeforward.ChannelBuilder;
import io.qubiq.storeforward.ChannelException;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.ChannelFullException;
import io.qubiq.storeforward.StoreForwardChannel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit journal as the gateway runs it: every audit event gets an entry id and goes on the
 * {@code audit} store-and-forward channel ({@code <data>/connections/audit/buffer} and
 * {@code quarantine}, policy refuse), whose sink is the {@link LocalAuditStore} in
 * {@code <data>/audit/journal} (and, with {@code forward_to}, also the channel of a QuestDB or SQL
 * connection, as rows the application makes: {@link AuditForwarding}).
 *
 * <p>Nothing is dropped silently: an event the channel refuses (at its limit) or cannot take (its
 * storage failed, or it is stopped) is logged at ERROR with its content and raises the
 * {@link AuditNotJournaledAlarm} until the channel takes an event again. Events that arrive before
 * {@link #start} (the console starts first) are held in memory, up to {@value #EARLY_LIMIT}, and
 * journaled on start. When the channel cannot start (its buffer directory is unusable, say), the held
 * events and every later one are logged at ERROR with the alarm, and start rethrows so the gateway
 * shows the journal FAILED.
 *
 * <p>Threading: {@link #record} is safe for concurrent callers (serialized here, so entry ids and
 * channel order agree); start and stop come from the lifecycle thread.
 */
public final class AuditJournal implements Component {

    public static final String CHANNEL = "audit";
    static final int EARLY_LIMIT = 10_000;
    private static final Logger log = LoggerFactory.getLogger(AuditJournal.class);

    private final LocalAuditStore store;
    private final StoreForwardChannel<JournalEntry> channel;
    private final EventPublisher events;
    private final Clock clock;
    private final List<JournalEntry> early = new ArrayList<>();
    private EntryIds ids;
    private boolean started;
    /** Why the channel could not start, once it could not: events are then logged at ERROR at once. */
    private String startFailure;
    private long notJournaled;

    AuditJournal(LocalAuditStore store, StoreForwardChannel<JournalEntry> channel, EventPublisher events, Clock clock) {
        this.store = store;
        this.channel = channel;
        this.events = events;
        this.clock = clock;
        this.ids = EntryIds.create(clock);
    }

    /**
     * Builds the journal: the local store, the sink in front of it (also handing each batch to
     * {@code forwarding}'s channel when present: {@code audit.forward_to}, resolved by the application,
     * which knows the connection kinds) and the channel. Nothing is opened or started here.
     */
    public static AuditJournal build(AuditConfig config, Path dataDir, Optional<AuditForwarding<?>> forwarding,
                                     ConnectionMonitor monitor, Duration probeInterval, EventPublisher events,
                                     Clock clock) {
        LocalAuditStore store = new LocalAuditStore(CHANNEL, dataDir.resolve("audit").resolve("journal"), config, clock);
        Sink<JournalEntry> sink = forwarding.<Sink<JournalEntry>>map(target -> forwardingSink(store, target))
                .orElse(store);
        Path dir = dataDir.resolve("connections").resolve(CHANNEL);
        StoreForwardChannel<JournalEntry> channel = ChannelBuilder.of(CHANNEL, config.storeAndForward(), sink,
                        new JournalEntryCodec())
                .overflowDefault(OverflowPolicy.REFUSE)
                .inDirectory(dir)
                .liveness(monitor.register(CHANNEL, sink::probe, probeInterval))
                .events(events)
                .clock(clock)
                .build()
                .synchronousSubmit(); // an audited action returns only once its entry is journaled or buffered
        return new AuditJournal(store, channel, events, clock);
    }

    private static <R> Sink<JournalEntry> forwardingSink(LocalAuditStore store, AuditForwarding<R> target) {
        return new ForwardingSink<>(store, target);
    }

    @Override
    public String name() {
        return "audit-journal";
    }

    public StoreForwardChannel<JournalEntry> channel() {
        return channel;
    }

    public LocalAuditStore store() {
        return store;
    }

    /**
     * Opens the local store (recovering it; a store that cannot be opened is reported and retried by
     * the channel, it does not stop the gateway), seeds entry ids above the stored ones, starts the
     * channel and journals the events that came in before.
     */
    @Override
    public synchronized void start() throws Exception {
        try {
            store.open();
            ids = EntryIds.after(store.highestId(), clock);
        } catch (IOException e) {
            log.error("Audit journal in {} cannot be opened ({}); audit events are buffered on the audit channel"
                    + " until it can", store.directory(), e.toString());
        }
        try {
            channel.start();
        } catch (Exception e) {
            // the gateway runs without the journal (see Lifecycle): nothing may wait in memory for it
            startFailure = "the audit channel did not start: " + e.getMessage();
            store.close(); // a component that did not start is not stopped: release the store now
            List<JournalEntry> waiting = List.copyOf(early);
            early.clear();
            if (!waiting.isEmpty()) {
                notJournaled(waiting, startFailure);
            }
            throw e;
        }
        started = true;
        List<JournalEntry> waiting = List.copyOf(early);
        early.clear();
        if (!waiting.isEmpty()) {
            submit(waiting);
        }
    }

    @Override
    public synchronized void stop() throws Exception {
        started = false;
        channel.stop();
        store.close();
    }

    /** Journals one event: see the class doc for what happens when that is not possible. */
    public synchronized void record(AuditEvent event) {
        JournalEntry entry = new JournalEntry(ids.next(), event);
        if (startFailure != null) {
            notJournaled(List.of(entry), startFailure);
            return;
        }
        if (!started) {
            if (early.size() < EARLY_LIMIT) {
                early.add(entry);
            } else {
                notJournaled(List.of(entry), "the audit journal is not running");
            }
            return;
        }
        submit(List.of(entry));
    }

    private void submit(List<JournalEntry> entries) {
        try {
            channel.submit(entries);
        } catch (ChannelFullException e) {
            notJournaled(entries, e.getMessage());
            return;
        } catch (ChannelException e) {
            notJournaled(entries, e.getMessage());
            return;
        }
        if (notJournaled > 0) {
            events.alarm(new AuditNotJournaledAlarm(false, clock.instant(), notJournaled, ""));
            notJournaled = 0;
        }
    }

    private void notJournaled(List<JournalEntry> entries, String reason) {
        JournalEntryCodec codec = new JournalEntryCodec();
        for (JournalEntry entry : entries) {
            log.error("Audit event NOT journaled ({}): {} {}", reason, LogSafe.text(codec.preview(entry)),
                    LogSafe.text(entry.event().details()));
        }
        boolean first = notJournaled == 0;
        notJournaled += entries.size();
        if (first) {
            events.alarm(new AuditNotJournaledAlarm(true, clock.instant(), notJournaled, reason));
        }
    }

}
