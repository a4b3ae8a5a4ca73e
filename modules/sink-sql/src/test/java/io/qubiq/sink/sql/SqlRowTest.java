package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlRowTest {

    @Test
    void parametersAreAnUnmodifiableCopyInTheGivenOrderWithNullsAllowed() {
        Map<String, Object> given = new LinkedHashMap<>();
        given.put("z", 1);
        given.put("a", null);
        SqlRow row = new SqlRow("id", "SELECT :z, :a", given);
        given.put("late", 2);

        assertThat(row.parameters()).containsOnlyKeys("z", "a");
        assertThat(row.parameters().keySet()).containsExactly("z", "a");
        assertThatThrownBy(() -> row.parameters().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void unsupportedValuesAndBadNamesAreRejectedWhereTheRowIsMade() {
        assertThatThrownBy(() -> new SqlRow("id", "SELECT :f", Map.of("f", 1.5f)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.Float");
        assertThatThrownBy(() -> new SqlRow("id", "SELECT 1", Map.of("1a", 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid parameter name");
        assertThatThrownBy(() -> new SqlRow("id", "SELECT 1", Map.of("a-b", 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SqlRow("id", "SELECT :item_id", Map.of("item_id", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
        assertThatThrownBy(() -> new SqlRow("id", " ", Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SqlRow(null, "SELECT 1", Map.of())).isInstanceOf(NullPointerException.class);
        Map<String, Object> nullKey = new HashMap<>();
        nullKey.put(null, 1);
        assertThatThrownBy(() -> new SqlRow("id", "SELECT 1", nullKey)).isInstanceOf(IllegalArgumentException.class);
    }
}
