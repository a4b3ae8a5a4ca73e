package io.qubiq.audit;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.testkit.RecordingEvents;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link JournalCrashTest}: the audit channel as the gateway builds it (segmented
 * disk buffer, file quarantine, refuse policy) in front of a {@link LocalAuditStore} on
 * {@code DIR/journal}, with ids from {@link EntryIds} seeded by the store. One producer journals
 * numbered entries (target {@code item/<n>}) in batches of 1 to 5 until the parent kills the process.
 *
 * <p>Reports, each on one line starting {@code AJ } and ending {@code " ;"}: {@code ready},
 * {@code accepted <first> <last>} after {@code submit} returned, and in drain mode
 * {@code drained <quarantined>} once everything buffered reached the store.
 * Args: {@code DIR run|drain fastPath seed start}.
 */
public final class JournalCrashChild {

    static final String PREFIX = "AJ ";
    private static final PrintStream OUT = System.out;

    private JournalCrashChild() {
    }

    static ChannelConfig channelConfig(boolean fastPath) {
        return ChannelConfig.defaults().withMaxBytes(64L << 20).withSegmentBytes(1 << 20).withBatch(50, 0)
                .withBackoff(5, 50).withFastPath(fastPath).withDurability(Durability.PERIODIC);
    }

    static LocalAuditStore store(Path dir) {
        return new LocalAuditStore("audit", dir.resolve("journal"), AuditConfig.defaults()
                .withStoreLimits(1 << 30, 256 * 1024, java.util.Optional.empty()), Clock.systemUTC());
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        boolean drain = args[1].equals("drain");
        boolean fastPath = Boolean.parseBoolean(args[2]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[3]));
        long next = Long.parseLong(args[4]);

        LocalAuditStore store = store(dir);
        EntryIds ids = EntryIds.after(store.highestId(), Clock.systemUTC());
        StoreForwardChannel<JournalEntry> channel = new StoreForwardChannel<>("audit", channelConfig(fastPath),
                OverflowPolicy.REFUSE, dir.resolve("buffer"), SegmentedDiskBuffer::open,
                maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes), store,
                new JournalEntryCodec(), Liveness.alwaysUnknown(), new RecordingEvents(), Clock.systemUTC())
                .synchronousSubmit(); // as the gateway's AuditJournal: an accepted entry is delivered or on disk
        channel.start();
        report("ready");
        if (drain) {
            while (channel.status().bufferedItems() > 0 || channel.status().state() != ChannelState.IDLE) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            channel.stop();
            report("drained " + channel.status().quarantineItems());
            System.exit(0);
        }
        while (true) {
            int size = 1 + random.nextInt(5);
            List<JournalEntry> batch = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                batch.add(new JournalEntry(ids.next(), new AuditEvent(java.time.Instant.now(), "crash",
                        AuditAction.TAG_WRITE, "item/" + (next + i), "written", Map.of("n", Long.toString(next + i)))));
            }
            channel.submit(batch);
            report("accepted " + next + " " + (next + size - 1));
            next += size;
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200 + random.nextInt(800)));
        }
    }

    private static void report(String line) {
        byte[] bytes = (PREFIX + line + " ;\n").getBytes(StandardCharsets.UTF_8);
        OUT.write(bytes, 0, bytes.length);
        OUT.flush();
    }
}
