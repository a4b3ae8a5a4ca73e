package io.qubiq.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.fileops.NewerFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal marked by a newer gateway is refused on open, before recovery cuts, moves or creates
 * anything; a journal from before the format line opens and gets one. Without the gate, the old
 * code opened it and set aside every segment it could not read (a newer gateway's entries) as damage.
 */
class JournalNewerFormatTest {

    @TempDir
    Path temp;

    private LocalAuditStore store(Path dir) {
        return new LocalAuditStore("audit", dir, AuditConfig.defaults(),
                Clock.fixed(Entries.T0, ZoneOffset.UTC));
    }

    @Test
    void aJournalFromBeforeTheFormatLineOpensWithItsEntriesAndIsMarkedVersionOne() throws Exception {
        Path dir = journalWithEntries();
        Files.delete(dir.resolve("FORMAT")); // as every journal written before this version

        LocalAuditStore store = store(dir);
        store.open();
        assertThat(store.highestId()).isEqualTo(1005);
        store.close();
        assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("qubiq-audit-journal format 1\n");
    }

    @Test
    void aJournalMarkedByANewerGatewayIsRefusedAndNothingInItChanges() throws Exception {
        Path dir = journalWithEntries();
        Files.writeString(dir.resolve("FORMAT"), "qubiq-audit-journal format 2\n");
        Files.writeString(dir.resolve("00000000000000000006.journal"), "QAJL a segment of format 2");
        Map<String, String> before = contents(dir);

        LocalAuditStore store = store(dir);
        assertThatThrownBy(store::open)
                .isInstanceOf(NewerFormatException.class)
                .hasMessageContaining("audit journal " + dir.resolve("FORMAT"))
                .hasMessageContaining("format version 2, newer than version 1");
        assertThatThrownBy(() -> store.write(List.of(Entries.entry(9))))
                .as("a write after the refusal is refused too, and writes nothing")
                .hasRootCauseInstanceOf(NewerFormatException.class);
        assertThat(contents(dir)).isEqualTo(before);
        store.close();
    }

    private Path journalWithEntries() throws Exception {
        Path dir = temp.resolve("journal");
        LocalAuditStore store = store(dir);
        store.write(IntStream.rangeClosed(1, 5).mapToObj(Entries::entry).toList());
        store.close();
        return dir;
    }

    private static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(file).toString(), HexFormat.of().formatHex(Files.readAllBytes(file)));
            }
        }
        return files;
    }
}
