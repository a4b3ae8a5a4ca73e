package io.qubiq.audit;

import static io.qubiq.audit.Entries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a reopened journal makes of damaged files: it always opens, it serves a prefix of what was
 * written (never an entry that was not, never one out of order), damage is set aside in corrupt/,
 * and writing goes on with sequence numbers above every one served.
 */
class JournalRecoveryTest {

    private static final AuditConfig SMALL = AuditConfig.defaults().withStoreLimits(1 << 20, 65536, Optional.empty());

    @TempDir
    Path temp;

    private Path journal(String name) {
        return temp.resolve(name);
    }

    private static LocalAuditStore store(Path dir) {
        return new LocalAuditStore("audit", dir, SMALL, Clock.systemUTC());
    }

    /** Writes entries 0..count-1 one per batch and returns the single segment file. */
    private static Path written(Path dir, int count) throws Exception {
        try (LocalAuditStore store = store(dir)) {
            for (int i = 0; i < count; i++) {
                store.write(List.of(entry(i)));
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(JournalFormat.SUFFIX)).findFirst().orElseThrow();
        }
    }

    private static List<Integer> served(LocalAuditStore store) {
        List<Integer> numbers = new ArrayList<>(store.query(JournalQuery.newest(1000)).entries().stream()
                .map(stored -> Entries.number(stored.entry())).toList());
        java.util.Collections.reverse(numbers);
        return numbers;
    }

    private static int lastRecordOffset(Path segment, int count) throws IOException {
        long size = Files.size(segment);
        int frame = JournalFormat.frameBytes(new JournalEntryCodec().encode(entry(count - 1)).length);
        return (int) (size - frame);
    }

    @Test
    void aLastRecordCutAtAnyByteIsDiscardedAndTheRestIsServedAndWritingGoesOn() throws Exception {
        Path pristine = journal("pristine");
        Path segment = written(pristine, 5);
        byte[] bytes = Files.readAllBytes(segment);
        int lastStart = lastRecordOffset(segment, 5);

        for (int cut = lastStart; cut < bytes.length; cut++) {
            Path dir = journal("cut-" + cut);
            Files.createDirectories(dir);
            Files.write(dir.resolve(segment.getFileName()), java.util.Arrays.copyOf(bytes, cut));

            try (LocalAuditStore store = store(dir)) {
                assertThat(served(store)).as("cut at %d", cut).containsExactly(0, 1, 2, 3);
                store.write(List.of(entry(4), entry(5)));
                assertThat(served(store)).as("cut at %d, rewritten", cut).containsExactly(0, 1, 2, 3, 4, 5);
                assertThat(store.query(JournalQuery.newest(1)).entries().get(0).seq()).isEqualTo(6);
            }
            assertThat(dir.resolve(JournalRecovery.CORRUPT)).as("a torn append is not damage").doesNotExist();
        }
    }

    @Test
    void aFlippedBitInAnyByteOfTheRecordsYieldsAPrefixAndKeepsTheDamagedBytesAside() throws Exception {
        Path pristine = journal("pristine");
        Path segment = written(pristine, 6);
        byte[] bytes = Files.readAllBytes(segment);

        for (int at = JournalFormat.SEGMENT_HEADER_BYTES; at < bytes.length; at++) {
            {
                int bit = at % 8;
                Path dir = journal("flip-" + at + "-" + bit);
                Files.createDirectories(dir);
                byte[] damaged = bytes.clone();
                damaged[at] ^= (byte) (1 << bit);
                Files.write(dir.resolve(segment.getFileName()), damaged);

                try (LocalAuditStore store = store(dir)) {
                    List<Integer> served = served(store);
                    assertThat(served).as("flip at %d bit %d", at, bit)
                            .isEqualTo(IntStream.range(0, served.size()).boxed().toList());
                    assertThat(served.size()).isLessThan(6);
                    if (at % 16 == 0) {
                        store.write(List.of(entry(100)));
                        assertThat(served(store)).endsWith(100);
                    }
                }
            }
        }
    }

    @Test
    void aSegmentWithABadHeaderIsMovedToCorruptAndTheOthersAreServed() throws Exception {
        Path dir = journal("bad-header");
        AuditConfig tiny = AuditConfig.defaults().withStoreLimits(1 << 20, 65536, Optional.empty());
        try (LocalAuditStore store = new LocalAuditStore("audit", dir, tiny, Clock.systemUTC())) {
            store.write(IntStream.range(0, 700).mapToObj(Entries::entry).toList());
        }
        List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = files.filter(f -> f.toString().endsWith(JournalFormat.SUFFIX)).sorted().toList();
        }
        assertThat(segments.size()).isGreaterThanOrEqualTo(2);
        try (FileChannel channel = FileChannel.open(segments.get(0), StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(new byte[] {'X'}), 0);
        }

        try (LocalAuditStore store = new LocalAuditStore("audit", dir, tiny, Clock.systemUTC())) {
            List<Integer> served = served(store);
            assertThat(served).isNotEmpty().endsWith(699);
            assertThat(served.get(0)).isGreaterThan(0);
        }
        assertThat(dir.resolve(JournalRecovery.CORRUPT).resolve(segments.get(0).getFileName())).exists();
        assertThat(dir.resolve(JournalRecovery.CORRUPT).resolve(segments.get(0).getFileName() + ".note")).exists();
    }

    @Test
    void aNewestSegmentCutInsideItsHeaderIsDeletedAndItsNameReused() throws Exception {
        Path dir = journal("torn-header");
        written(dir, 3);
        Path next = dir.resolve(JournalFormat.fileName(4));
        Files.write(next, new byte[] {'Q', 'A'});

        try (LocalAuditStore store = store(dir)) {
            assertThat(served(store)).containsExactly(0, 1, 2);
            assertThat(next).doesNotExist();
            store.write(List.of(entry(3)));
            assertThat(store.lastSeq()).isEqualTo(4);
        }
    }

    @Test
    void filesThatAreNotSegmentsAreLeftAlone() throws Exception {
        Path dir = journal("others");
        written(dir, 2);
        Files.writeString(dir.resolve("README.txt"), "operator notes");
        try (LocalAuditStore store = store(dir)) {
            assertThat(served(store)).containsExactly(0, 1);
        }
        assertThat(dir.resolve("README.txt")).hasContent("operator notes");
    }
}
