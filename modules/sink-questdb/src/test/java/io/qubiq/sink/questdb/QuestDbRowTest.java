package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuestDbRowTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void namesQuestDbWouldRejectAreRefusedWhereTheRowIsMade() {
        assertThatThrownBy(() -> QuestDbRow.builder("", T).column("v", 1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> QuestDbRow.builder("a/b", T).column("v", 1).build())
                .hasMessageContaining("'/'");
        assertThatThrownBy(() -> QuestDbRow.builder("t", T).column("a.b", 1).build())
                .hasMessageContaining("column name");
        assertThatThrownBy(() -> QuestDbRow.builder("t", T).symbol("a-b", "x").build())
                .hasMessageContaining("'-'");
        assertThatThrownBy(() -> QuestDbRow.builder("t", T).column("line\nbreak", 1).build())
                .hasMessageContaining("control character");
        assertThatThrownBy(() -> QuestDbRow.builder("x".repeat(128), T).column("v", 1).build())
                .hasMessageContaining("longer than 127");
        assertThat(QuestDbRow.builder("plant.line 1", T).column("speed rpm", 1).build().table())
                .isEqualTo("plant.line 1");
    }

    @Test
    void unsupportedValuesNullsAndEmptyRowsAreRefused() {
        assertThatThrownBy(() -> QuestDbRow.builder("t", T).column("v", BigDecimal.ONE).build())
                .hasMessageContaining("BigDecimal");
        Map<String, Object> withNull = new LinkedHashMap<>();
        withNull.put("v", null);
        assertThatThrownBy(() -> new QuestDbRow("t", T, Map.of(), withNull)).hasMessageContaining("null");
        assertThatThrownBy(() -> QuestDbRow.builder("t", T).build()).hasMessageContaining("at least one");
        assertThatThrownBy(() -> QuestDbRow.builder("t", T).symbol("v", "a").column("v", 1).build())
                .hasMessageContaining("also a symbol");
    }

    @Test
    void designatedTimestampMustFitQuestDbsRange() {
        assertThatThrownBy(() -> QuestDbRow.builder("t", Instant.EPOCH.minusNanos(1)).column("v", 1).build())
                .hasMessageContaining("out of QuestDB's range");
        assertThatThrownBy(() -> QuestDbRow.builder("t", Instant.parse("2263-01-01T00:00:00Z")).column("v", 1).build())
                .hasMessageContaining("out of QuestDB's range");
    }

    @Test
    void rowIsImmutable() {
        Map<String, Object> columns = new LinkedHashMap<>();
        columns.put("v", 1);
        QuestDbRow row = new QuestDbRow("t", T, Map.of(), columns);
        columns.put("w", 2);

        assertThat(row.columns()).containsOnlyKeys("v");
        assertThatThrownBy(() -> row.columns().put("x", 3L)).isInstanceOf(UnsupportedOperationException.class);
    }
}
