package io.qubiq.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JournalEntryCodecTest {

    private final JournalEntryCodec codec = new JournalEntryCodec();

    @Test
    void entriesRoundTripWithUnicodeAndDetailOrderKept() throws Exception {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("z-first", "Ölpumpe ⚙ 温度 🚀");
        details.put("from", "fe80::1");
        details.put("", "");
        JournalEntry entry = new JournalEntry(Long.MAX_VALUE, new AuditEvent(Instant.parse("2025-01-02T03:04:05.123456789Z"),
                "jürgen.müller", AuditAction.TAG_WRITE, "tag/Linie 3/Druck", "written ✓", details));

        JournalEntry decoded = codec.decode(codec.encode(entry));

        assertThat(decoded).isEqualTo(entry);
        assertThat(decoded.event().details().keySet()).containsExactly("z-first", "from", "");
    }

    @Test
    void anEntryWithEmptyDetailsAndEmptyStringsRoundTrips() throws Exception {
        JournalEntry entry = new JournalEntry(0, new AuditEvent(Instant.EPOCH, "", AuditAction.SIGN_OUT, "", "",
                Map.of()));
        assertThat(codec.decode(codec.encode(entry))).isEqualTo(entry);
    }

    @Test
    void theFirstByteIsTheFormatVersionAndTheIdFollows() {
        byte[] bytes = codec.encode(Entries.entry(7));
        assertThat(bytes[0]).isEqualTo((byte) 1);
        assertThat(ByteBuffer.wrap(bytes, 1, 8).getLong()).isEqualTo(1007);
    }

    @Test
    void bytesThatDoNotDecodeArePermanentNeverAnotherException() {
        byte[] good = codec.encode(Entries.entry(3));
        for (int cut = 0; cut < good.length; cut++) {
            byte[] shortened = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> codec.decode(shortened)).as("cut at %d", cut)
                    .isInstanceOf(PermanentException.class);
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> codec.decode(longer)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("past its end");
        byte[] otherVersion = good.clone();
        otherVersion[0] = 2;
        assertThatThrownBy(() -> codec.decode(otherVersion)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("version 2");
    }

    @Test
    void previewSaysWhoDidWhatToWhich() {
        assertThat(codec.preview(Entries.entry(5))).contains("alice", "QUARANTINE_RETRY", "item/5", "retried");
    }
}
