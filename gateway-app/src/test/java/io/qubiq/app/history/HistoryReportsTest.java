package io.qubiq.app.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.console.ConsoleServer;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.historian.HistorianStatus;
import io.qubiq.historian.query.Point;
import io.qubiq.historian.query.Series;
import io.qubiq.historian.wal.SuspensionCause;
import io.qubiq.historian.wal.WalTableStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The console's typed history records answer with exactly the JSON the API gave when it
 * serialized the historian's own records, so trends, the WAL page and scripts see no change. Would
 * catch a field dropped, renamed or mapped from the wrong one.
 */
class HistoryReportsTest {

    private static final Instant T = Instant.parse("2026-12-02T15:30:00Z");
    private final ObjectMapper json = ConsoleServer.jsonMapper();

    private JsonNode tree(Object value) {
        return json.valueToTree(value);
    }

    @Test
    void aSeriesWithEveryKindOfValueReadsAsBefore() {
        Series series = new Series(TagPath.of("plant/oven/temp"), Arrays.asList(
                new Point(T, 21.5, Quality.GOOD), new Point(T, 7L, Quality.GOOD), new Point(T, true, Quality.GOOD),
                new Point(T, "open", Quality.GOOD), new Point(T, T, Quality.GOOD),
                new Point(T.plusSeconds(1), null, Quality.BAD_NOT_CONNECTED)));

        assertThat(tree(HistoryReports.series(series))).isEqualTo(tree(series));
    }

    @Test
    void aWalTableAndTheHistoriansStatusReadAsBefore() {
        WalTableStatus table = new WalTableStatus("history_double", true, true, 41, 45, "DISK FULL", "no space",
                Optional.of(SuspensionCause.DISK_FULL), 2, 9, false, true, Optional.of(T));
        HistorianStatus status = new HistorianStatus(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);

        assertThat(tree(HistoryReports.table(table))).isEqualTo(tree(table));
        assertThat(tree(HistoryReports.status(status))).isEqualTo(tree(status));
        assertThat(tree(List.of(HistoryReports.table(table)))).isEqualTo(tree(List.of(table)));
    }
}
