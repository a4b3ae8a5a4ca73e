package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.sink.questdb.QuestDbRow;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How a sample becomes a row: the table of its type, the gateway's identity and the tag as symbols,
 * its columns in order, its value widened.
 */
class HistorySchemaRowTest {

    private static final Instant TS = Instant.parse("2026-05-01T10:00:00.123456Z");
    private static final Instant SOURCE = Instant.parse("2026-05-01T10:00:00.100Z");
    private static final Instant SERVER = Instant.parse("2026-05-01T10:00:00.200Z");
    private final HistorySchema tables = new HistorySchema("hist", PartitionUnit.DAY, 0);
    private final HistoryRows schema = new HistoryRows(tables, "line-1-gateway");

    private static HistorySample sample(DataType type, Object value, Quality quality) {
        return new HistorySample(TagPath.of("plant/line1/" + type.name().toLowerCase()), type, value, quality, TS,
                SOURCE, SERVER);
    }

    @Test
    void everyTypeGoesToItsTableWithGatewayTagValueQualityAndBothTimes() {
        Map<DataType, Object> values = Map.of(DataType.BOOLEAN, true, DataType.INT32, 7, DataType.INT64, 1L << 40,
                DataType.FLOAT32, 1.5f, DataType.FLOAT64, -2.25, DataType.STRING, "running",
                DataType.DATETIME, SOURCE);
        for (DataType type : DataType.values()) {
            QuestDbRow row = schema.row(sample(type, values.get(type), Quality.GOOD));

            QuestDbRow expected = QuestDbRow.builder(tables.tableFor(type), TS)
                    .symbol("gateway", "line-1-gateway")
                    .symbol("tag", "plant/line1/" + type.name().toLowerCase())
                    .column("value", values.get(type))
                    .column("quality", 0L)
                    .column("source_ts", SOURCE)
                    .column("server_ts", SERVER)
                    .build();
            assertThat(row).as(type.name()).isEqualTo(expected);
            assertThat(row.columns().keySet()).containsExactly("value", "quality", "source_ts", "server_ts");
        }
        assertThat(schema.row(sample(DataType.INT32, 7, Quality.GOOD)).columns().get("value")).isEqualTo(7L);
        assertThat(schema.row(sample(DataType.FLOAT32, 1.5f, Quality.GOOD)).columns().get("value")).isEqualTo(1.5d);
    }

    @Test
    void sampleWithoutValueHasNoValueColumnAndItsQualityAsAnUnsignedCode() {
        QuestDbRow row = schema.row(sample(DataType.FLOAT64, null, Quality.BAD_NOT_CONNECTED));

        assertThat(row.table()).isEqualTo("hist_double");
        assertThat(row.columns().keySet()).containsExactly("quality", "source_ts", "server_ts");
        assertThat(row.columns().get("quality")).isEqualTo(0x808A0000L);
    }
}
