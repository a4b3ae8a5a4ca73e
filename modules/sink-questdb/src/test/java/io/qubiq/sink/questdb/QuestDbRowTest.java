package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
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

    @Test
    void aNameThatPassedOnceIsStillCheckedAsTheSameStringAndAnInvalidOneIsRefusedEveryTime() {
        String valid = new String("speed_" + "rpm");
        QuestDbRow.builder("t", T).column(valid, 1).build();
        QuestDbRow.builder("t", T).column(new String(valid), 1).build();
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> QuestDbRow.builder("t", T).column("a.b", 1).build())
                    .hasMessageContaining("column name");
            assertThatThrownBy(() -> QuestDbRow.builder("a/b", T).column("v", 1).build())
                    .hasMessageContaining("'/'");
        }
        // a valid table name is not thereby a valid column name: the rules differ
        QuestDbRow.builder("plant.line", T).column("v", 1).build();
        assertThatThrownBy(() -> QuestDbRow.builder("t", T).column("plant.line", 1).build())
                .hasMessageContaining("column name");
    }

    @Test
    void layoutChecksItsNamesOnceWhenItIsMade() {
        assertThatThrownBy(() -> QuestDbRow.Layout.of("a/b", List.of("tag"), List.of("v")))
                .hasMessageContaining("'/'");
        assertThatThrownBy(() -> QuestDbRow.Layout.of("t", List.of("tag"), List.of("a-b")))
                .hasMessageContaining("'-'");
        assertThatThrownBy(() -> QuestDbRow.Layout.of("t", List.of("v"), List.of("v")))
                .hasMessageContaining("also a symbol");
        assertThatThrownBy(() -> QuestDbRow.Layout.of("t", List.of(), List.of("v", "v")))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> QuestDbRow.Layout.of("t", List.of(), List.of()))
                .hasMessageContaining("at least one");
    }

    @Test
    void layoutRowEqualsTheBuilderRowWithTheSameContent() {
        QuestDbRow.Layout layout = QuestDbRow.Layout.of("samples", List.of("tag"), List.of("value", "n", "at"));

        QuestDbRow row = layout.row(T, "a/b", 1.5f, 3, T);

        QuestDbRow built = QuestDbRow.builder("samples", T).symbol("tag", "a/b").column("value", 1.5)
                .column("n", 3L).column("at", T).build();
        assertThat(row).isEqualTo(built).hasSameHashCodeAs(built);
        assertThat(row.symbols().keySet()).containsExactly("tag");
        assertThat(row.columns().keySet()).containsExactly("value", "n", "at");
        assertThat(row.columns().get("value")).isEqualTo(1.5d);
        assertThat(row.columns().get("n")).isEqualTo(3L);
        assertThat(new QuestDbRow(row.table(), row.timestamp(), row.symbols(), row.columns())).isEqualTo(row);
    }

    @Test
    void layoutRowStillChecksItsValuesAndTimestamp() {
        QuestDbRow.Layout layout = QuestDbRow.Layout.of("samples", List.of("tag"), List.of("value"));

        assertThatThrownBy(() -> layout.row(T, "a")).hasMessageContaining("takes 2 values");
        assertThatThrownBy(() -> layout.row(T, "a", BigDecimal.ONE)).hasMessageContaining("BigDecimal");
        assertThatThrownBy(() -> layout.row(T, "a", null)).hasMessageContaining("null");
        assertThatThrownBy(() -> layout.row(T, null, 1.0)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("symbol tag");
        assertThatThrownBy(() -> layout.row(T, 7, 1.0)).hasMessageContaining("symbol tag");
        assertThatThrownBy(() -> layout.row(Instant.EPOCH.minusNanos(1), "a", 1.0))
                .hasMessageContaining("out of QuestDB's range");
    }

    @Test
    void layoutRowKeepsNoReferenceToTheCallersArray() {
        QuestDbRow.Layout layout = QuestDbRow.Layout.of("samples", List.of("tag"), List.of("value"));
        Object[] values = {"a", 1.0};

        QuestDbRow row = layout.row(T, values);
        values[1] = 2.0;

        assertThat(row.columns().get("value")).isEqualTo(1.0);
        assertThatThrownBy(() -> row.symbols().remove("tag")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> row.columns().entrySet().iterator().next().setValue(5.0))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aLayoutRowOwningItsArrayIsCheckedAndNormalizedLikeACopiedOneAndEqualsIt() {
        QuestDbRow.Layout layout = QuestDbRow.Layout.of("samples", List.of("tag"), List.of("value", "n"));
        Object[] values = {"a", 1.5f, 3};

        QuestDbRow row = layout.rowOwning(T, values);

        assertThat(row).isEqualTo(layout.row(T, "a", 1.5f, 3)).hasSameHashCodeAs(layout.row(T, "a", 1.5d, 3L));
        assertThat(values).as("normalized in place: the array is the row's own").containsExactly("a", 1.5d, 3L);
        assertThat(row.toString()).isEqualTo("QuestDbRow[table=samples, timestamp=" + T
                + ", symbols={tag=a}, columns={value=1.5, n=3}]");
        assertThatThrownBy(() -> layout.rowOwning(T, new Object[] {"a", 1.0})).hasMessageContaining("takes 3 values");
        assertThatThrownBy(() -> layout.rowOwning(T, new Object[] {"a", BigDecimal.ONE, 1}))
                .hasMessageContaining("BigDecimal");
        assertThatThrownBy(() -> layout.rowOwning(Instant.EPOCH.minusNanos(1), new Object[] {"a", 1.0, 1}))
                .hasMessageContaining("out of QuestDB's range");
    }

    @Test
    void symbolsAndColumnsOfDifferentRowsAreCheckedAgainstEachOther() {
        QuestDbRow a = QuestDbRow.builder("t", T).symbol("v", "x").column("w", 1).build();
        QuestDbRow b = QuestDbRow.builder("t", T).symbol("w", "y").column("v", 2).build();

        assertThatThrownBy(() -> new QuestDbRow("t", T, a.symbols(), b.columns()))
                .hasMessageContaining("column v is also a symbol");
    }
}
