package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The child JVM of {@link QuarantineCrashTest}: adds and removes entries until it is killed,
 * printing (and flushing) {@code QC BEGIN-ADD id} before and {@code QC ADDED id} after each add
 * returned, likewise {@code BEGIN-REMOVE}/{@code REMOVED}. Args: directory, first new id, seed.
 */
public final class QuarantineCrashChild {

    static final long MAX_BYTES = 16L * 1024 * 1024;
    static final String PREFIX = "QC ";

    private QuarantineCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long nextId = Long.parseLong(args[1]);
        Random random = new Random(Long.parseLong(args[2]));
        PrintStream out = System.out;
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX_BYTES)) {
            List<Long> live = new ArrayList<>(QuarantineStoreContract.ids(
                    store.list(0, Integer.MAX_VALUE, Optional.empty())));
            report(out, "READY " + live.size());
            while (true) {
                if (!live.isEmpty() && (live.size() > 40 || random.nextInt(3) == 0)) {
                    long id = live.remove(random.nextInt(live.size()));
                    report(out, "BEGIN-REMOVE " + id);
                    if (!store.remove(id)) {
                        report(out, "MISSING " + id);
                    }
                    report(out, "REMOVED " + id);
                } else {
                    long id = nextId++;
                    byte[] item = item(id);
                    report(out, "BEGIN-ADD " + id);
                    store.add(entry(id, item), item);
                    report(out, "ADDED " + id);
                    live.add(id);
                }
            }
        }
    }

    private static void report(PrintStream out, String line) {
        out.println(PREFIX + line);
        out.flush();
    }

    /** The item for an id: 1 to 4000 bytes, derived from the id so the parent can check it. */
    static byte[] item(long id) {
        Random random = new Random(id);
        byte[] item = new byte[1 + random.nextInt(4000)];
        random.nextBytes(item);
        return item;
    }

    static QuarantineEntry entry(long id, byte[] item) {
        return new QuarantineEntry(id, id % 3 == 0 ? FailureClass.UNKNOWN_OUTCOME : FailureClass.PERMANENT,
                "rejected " + id, "error for " + id, (int) (id % 10), Instant.ofEpochMilli(id),
                Instant.ofEpochMilli(id + 1000), item.length);
    }
}
