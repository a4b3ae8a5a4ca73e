package io.qubiq.storeforward;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.TextCodec;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link ChannelCrashTest}: a real channel (segmented disk buffer, file quarantine)
 * on {@code DIR/buffer} and {@code DIR/quarantine} in front of a {@link FileDestinationSink} on
 * {@code DIR/destination.txt}, which a timer takes down and up again so that a backlog builds and
 * drains. Producer threads submit numbered items ({@code "<producer> <n>"}) in batches of 1 to
 * {@link #BATCH_MAX} until the parent kills the process.
 *
 * <p>Every line it reports starts with {@code SF } and ends with {@code " ;"}, so that the parent
 * can tell a whole line from one cut off by the kill:
 * <ul>
 *   <li>{@code SF ready <buffered items> ;} once the channel has started;
 *   <li>{@code SF accepted <producer> <first> <last> <outcome> ;} after {@code submit} returned
 *       normally for the items {@code first..last} of that producer, with what it answered
 *       ({@code HANDED_OFF}: in memory, which a kill may lose; else buffered or delivered);
 *   <li>{@code SF status <buffered items> <state> ;} every 20 ms;
 *   <li>drain mode only: {@code SF drained <quarantined items> ;} after the backlog was delivered and
 *       the channel stopped cleanly; then it exits.
 * </ul>
 * Args: {@code DIR run|drain fastPath(true|false) seed start0,start1,...} (one start per producer).
 */
public final class ChannelCrashChild {

    static final String PREFIX = "SF ";
    static final int BATCH_MAX = 10;

    private static final PrintStream OUT = System.out;

    private ChannelCrashChild() {
    }

    /**
     * The production default durability (periodic fsync) while producing, as killed children never
     * close; durability {@code none} for the draining child, which stops cleanly: a process kill keeps
     * the page cache either way, and it keeps that stop clear of the periodic-fsync close failure in
     * the buffer (see {@link ChannelStopDuringPeriodicFsyncTest}).
     */
    static ChannelConfig config(boolean fastPath, boolean drain) {
        return ChannelFixture.fastConfig().withMaxBytes(64L << 20).withFastPath(fastPath)
                .withDurability(drain ? Durability.NONE : Durability.PERIODIC);
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        boolean drain = args[1].equals("drain");
        boolean fastPath = Boolean.parseBoolean(args[2]);
        long seed = Long.parseLong(args[3]);
        String[] starts = args[4].split(",");

        FileDestinationSink sink = new FileDestinationSink(dir.resolve("destination.txt"));
        StoreForwardChannel<String> channel = new StoreForwardChannel<>("dest", config(fastPath, drain),
                OverflowPolicy.REFUSE, dir.resolve("buffer"), SegmentedDiskBuffer::open,
                maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes), sink, new TextCodec(),
                Liveness.alwaysUnknown(), new RecordingEvents(), Clock.systemUTC());
        channel.start();
        report("ready " + channel.status().bufferedItems());
        daemon("status", () -> {
            while (true) {
                ChannelStatus status = channel.status();
                report("status " + status.bufferedItems() + " " + status.state());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        });

        if (drain) {
            while (channel.status().bufferedItems() > 0 || channel.status().state() != ChannelState.IDLE) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            channel.stop();
            report("drained " + channel.status().quarantineItems());
            System.exit(0);
        }

        SplittableRandom timer = new SplittableRandom(seed);
        daemon("outages", () -> {
            boolean down = timer.nextBoolean();
            while (true) {
                sink.down(down);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(down ? 100 + timer.nextInt(300)
                        : 150 + timer.nextInt(350)));
                down = !down;
            }
        });
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < starts.length; p++) {
            int producer = p;
            long first = Long.parseLong(starts[p]);
            SplittableRandom random = new SplittableRandom(seed + 1 + p);
            producers.add(daemon("producer-" + p, () -> produce(channel, producer, first, random)));
        }
        for (Thread producer : producers) {
            producer.join();
        }
    }

    private static void produce(StoreForwardChannel<String> channel, int producer, long first,
                                SplittableRandom random) {
        long next = first;
        while (true) {
            int size = 1 + random.nextInt(BATCH_MAX);
            List<String> batch = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                batch.add(producer + " " + (next + i));
            }
            SubmitOutcome outcome;
            try {
                outcome = channel.submit(batch);
            } catch (ChannelFullException | ChannelException e) {
                report("refused " + producer + " " + next + " " + e.getMessage().replace(';', ','));
                return;
            }
            report("accepted " + producer + " " + next + " " + (next + size - 1) + " " + outcome);
            next += size;
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500 + random.nextInt(1500)));
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** One line, written with one call and flushed, so that a kill leaves at most its tail unwritten. */
    private static void report(String line) {
        byte[] bytes = (PREFIX + line + " ;\n").getBytes(StandardCharsets.UTF_8);
        synchronized (OUT) {
            OUT.write(bytes, 0, bytes.length);
            OUT.flush();
        }
    }
}
