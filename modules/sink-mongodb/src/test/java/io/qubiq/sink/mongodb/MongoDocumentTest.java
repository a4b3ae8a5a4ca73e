package io.qubiq.sink.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MongoDocumentTest {

    @Test
    void anUpsertNeedsKeyFieldsThatAreAmongItsFields() {
        assertThatThrownBy(() -> MongoDocument.upsert("i1", "assets", Map.of("asset", "P-101"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("i1").hasMessageContaining("at least one key field");
        assertThatThrownBy(() -> MongoDocument.upsert("i1", "assets", Map.of("asset", "P-101"), List.of("line")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key field \"line\" is not among its fields [asset]");
        assertThatThrownBy(() -> MongoDocument.upsert("i1", "assets", Map.of("asset", "P-101"), List.of("asset", "asset")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listed twice");
        assertThat(MongoDocument.upsert("i1", "assets", Map.of("asset", "P-101"), List.of("asset")).keyFields())
                .containsExactly("asset");
    }

    @Test
    void anInsertIsKeyedByItsIdAndTakesNoKeyFields() {
        assertThatThrownBy(() -> new MongoDocument("i1", "readings", Map.of("tag", "a"), MongoWriteMode.INSERT,
                List.of("tag")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("apply only to UPSERT");
        assertThat(MongoDocument.insert("i1", "readings", Map.of("tag", "a")).keyedByItemId()).isTrue();
        assertThat(MongoDocument.insert("i1", "readings", Map.of("_id", "i1")).keyedByItemId()).isTrue();
        assertThat(MongoDocument.insert("i1", "readings", Map.of("_id", "own")).keyedByItemId()).isFalse();
        assertThat(MongoDocument.upsert("i1", "assets", Map.of("a", 1), List.of("a")).keyedByItemId()).isFalse();
    }

    @Test
    void unsupportedValuesAreRefusedNamingTheirPath() {
        Map<String, Object> nested = Map.of("inner", List.of(1, new Object()));
        assertThatThrownBy(() -> MongoDocument.insert("i1", "c", Map.of("outer", nested)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("item i1").hasMessageContaining("outer.inner[1]")
                .hasMessageContaining("java.lang.Object");
        assertThatThrownBy(() -> MongoDocument.insert("i1", "c", Map.of("f", 1.5f)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.Float");
        assertThatThrownBy(() -> MongoDocument.insert("i1", "c", Map.of("d", new BigDecimal("1" + "0".repeat(40) + ".5"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Decimal128");
    }

    @Test
    void namesThatMongoDbCannotStoreAreRefused() {
        assertThatThrownBy(() -> MongoDocument.insert("i1", "", Map.of())).hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> MongoDocument.insert("i1", "a$b", Map.of())).hasMessageContaining("$ or NUL");
        assertThatThrownBy(() -> MongoDocument.insert("i1", "system.users", Map.of())).hasMessageContaining("system.");
        assertThatThrownBy(() -> MongoDocument.insert("i1", "c", Map.of("$set", 1))).hasMessageContaining("$set");
        assertThatThrownBy(() -> MongoDocument.insert("i1", "c", Map.of("a", Map.of("b\0c", 1))))
                .hasMessageContaining("NUL");
        assertThatThrownBy(() -> MongoDocument.insert(" ", "c", Map.of())).hasMessageContaining("itemId");
        assertThat(MongoDocument.insert("i1", "c", Map.of("a", Map.of("$nested.ok", 1))).fields()).containsKey("a");
    }

    @Test
    void theDocumentIsAnUnmodifiableDeepCopyInTheCallersKeyOrder() {
        List<Object> list = new ArrayList<>(List.of(1, 2));
        Map<String, Object> inner = new HashMap<>(Map.of("x", 1));
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("z", "last-name-first");
        fields.put("list", list);
        fields.put("inner", inner);
        fields.put("none", null);
        fields.put("at", Instant.parse("2026-01-01T00:00:00.123456789Z"));

        MongoDocument document = MongoDocument.insert("i1", "c", fields);
        list.add(3);
        inner.put("y", 2);
        fields.put("later", true);

        assertThat(document.fields().keySet()).containsExactly("z", "list", "inner", "none", "at");
        assertThat(document.fields().get("list")).isEqualTo(List.of(1, 2));
        assertThat(document.fields().get("inner")).isEqualTo(Map.of("x", 1));
        assertThatThrownBy(() -> document.fields().put("a", 1)).isInstanceOf(UnsupportedOperationException.class);
        @SuppressWarnings("unchecked")
        List<Object> copied = (List<Object>) document.fields().get("list");
        assertThatThrownBy(() -> copied.add(4)).isInstanceOf(UnsupportedOperationException.class);
    }
}
