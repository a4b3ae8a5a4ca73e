package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.config.edit.KeyPath;
import io.qubiq.config.edit.YamlEdit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A new value becomes edits of only the leaves that differ from what the gateway reads there now. */
class LeafEditsTest {

    private static final Map<String, Object> TREE = Map.of("outbound", Map.of("db", Map.of(
            "sql", Map.of("username", "postgres", "password", "***"),
            "store_and_forward", Map.of("batch_max_items", 500, "linger_ms", 200L),
            "tags", List.of("a", "b"))));

    private static Map<String, Object> section(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void aSectionSentBackWithOneChangeIsOneEdit() {
        List<YamlEdit> edits = LeafEdits.of(TREE, KeyPath.parse("outbound.db.store_and_forward"),
                section("batch_max_items", 100, "linger_ms", 200));

        assertThat(edits).containsExactly(YamlEdit.put("outbound.db.store_and_forward.batch_max_items", 100));
    }

    @Test
    void numbersCompareByValueAndTheMaskKeepsASecret() {
        assertThat(LeafEdits.of(TREE, KeyPath.parse("outbound.db.store_and_forward.linger_ms"), 200.0)).isEmpty();
        assertThat(LeafEdits.of(TREE, KeyPath.parse("outbound.db.sql"),
                section("username", "postgres", "password", "***"))).isEmpty();
    }

    @Test
    void aKeyLeftOutIsRemovedAndANewOneIsPut() {
        List<YamlEdit> edits = LeafEdits.of(TREE, KeyPath.parse("outbound.db.store_and_forward"),
                section("batch_max_items", 500, "max_bytes", 1000));

        assertThat(edits).containsExactly(YamlEdit.remove("outbound.db.store_and_forward.linger_ms"),
                YamlEdit.put("outbound.db.store_and_forward.max_bytes", 1000));
    }

    @Test
    void aChangedListIsWrittenWholeAndANewSectionLeafByLeaf() {
        assertThat(LeafEdits.of(TREE, KeyPath.parse("outbound.db.tags"), List.of("a", "c")))
                .containsExactly(YamlEdit.put("outbound.db.tags", List.of("a", "c")));
        assertThat(LeafEdits.of(TREE, KeyPath.parse("outbound.mq"), section("mqtt", section("host", "h"))))
                .containsExactly(YamlEdit.put("outbound.mq.mqtt.host", "h"));
    }
}
