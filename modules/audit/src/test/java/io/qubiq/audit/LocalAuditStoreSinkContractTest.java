package io.qubiq.audit;

import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.testkit.sink.SinkContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local audit store keeps every sink's promises. Its "destination" is its journal directory:
 * unreachable is a directory that cannot be created (a file stands in its place); a rejected item
 * is an entry too large for a segment.
 */
class LocalAuditStoreSinkContractTest extends SinkContract<JournalEntry> {

    private static final AuditConfig SMALL = AuditConfig.defaults().withStoreLimits(1 << 20, 65536, Optional.empty());

    @TempDir
    Path temp;

    @Override
    protected Sink<JournalEntry> newSink() {
        return new LocalAuditStore("audit", temp.resolve("journal"), SMALL, Clock.systemUTC());
    }

    @Override
    protected Sink<JournalEntry> newSinkToUnreachableDestination() throws Exception {
        Path file = Files.writeString(temp.resolve("not-a-directory"), "x");
        return new LocalAuditStore("audit", file.resolve("journal"), SMALL, Clock.systemUTC());
    }

    @Override
    protected JournalEntry item(int n) {
        return Entries.entry(n);
    }

    @Override
    protected JournalEntry poisonItem(int n) {
        return new JournalEntry(1000 + n, new AuditEvent(Entries.T0, "alice", AuditAction.TAG_WRITE, "item/" + n,
                "written", Map.of("value", "x".repeat(70_000))));
    }

    @Override
    protected List<Integer> delivered() {
        try (LocalAuditStore reader = new LocalAuditStore("audit", temp.resolve("journal"), SMALL, Clock.systemUTC())) {
            List<Integer> numbers = new ArrayList<>(reader.query(JournalQuery.newest(1000)).entries().stream()
                    .map(stored -> Entries.number(stored.entry())).toList());
            Collections.reverse(numbers);
            return numbers;
        }
    }

    @Override
    protected ItemCodec<JournalEntry> codec() {
        return new JournalEntryCodec();
    }
}
