package io.qubiq.app.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.console.ConsoleServer;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.Quarantine;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.storeforward.quarantine.QuarantinePage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The console's typed store-and-forward records answer with exactly the JSON the API gave when it
 * serialized store-and-forward's own records (every field, same names, same values), so the console
 * UI and scripts see no change. Would catch a field dropped, renamed or mapped from the wrong one.
 */
class ChannelReportsTest {

    private final ObjectMapper json = ConsoleServer.jsonMapper();
    private static final Instant T = Instant.parse("2026-12-02T15:30:00Z");

    private com.fasterxml.jackson.databind.JsonNode tree(Object value) {
        return json.valueToTree(value);
    }

    @Test
    void aChannelReadsAsTheChannelStatusDid() {
        ChannelStatus status = new ChannelStatus("db", ChannelState.STALLED, ConnectionState.DOWN, 1, 2, 3, 4.5, 80,
                60, Optional.of(Duration.ofSeconds(7)), 8.5, 9.5, 10, 11, 12, 13, 14, 15, 16, 17, true, true,
                Optional.of("broken pipe"), Optional.of(T));

        assertThat(tree(ChannelReports.channel(status))).isEqualTo(tree(status));
    }

    @Test
    void aQuarantinePageAndAPreviewReadAsBefore() {
        QuarantineEntry entry = new QuarantineEntry(5, FailureClass.PERMANENT, "constraint", "ERROR: 23505", 2, T,
                T.plusSeconds(3), 120, List.of(1L, 3L));
        QuarantinePage page = new QuarantinePage(List.of(entry), 10, 42);
        Quarantine.Preview preview = new Quarantine.Preview(entry, "{\"v\":1}", 120);

        assertThat(tree(ChannelReports.page(page))).isEqualTo(tree(page));
        assertThat(tree(ChannelReports.preview(preview))).isEqualTo(tree(preview));
    }
}
