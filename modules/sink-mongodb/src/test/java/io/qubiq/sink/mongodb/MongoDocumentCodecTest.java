package io.qubiq.sink.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.PermanentException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MongoDocumentCodecTest {

    private final MongoDocumentCodec codec = new MongoDocumentCodec();

    static MongoDocument everyType() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("text", "ünïcödé \"quoted\" \u0001 and 𝄞");
        fields.put("int", Integer.MIN_VALUE);
        fields.put("intSmall", -1);
        fields.put("long", Long.MAX_VALUE);
        fields.put("longNegative", Long.MIN_VALUE);
        fields.put("double", -0.0);
        fields.put("nan", Double.longBitsToDouble(0x7ff8000000000123L));
        fields.put("inf", Double.POSITIVE_INFINITY);
        fields.put("yes", true);
        fields.put("no", false);
        fields.put("decimal", new BigDecimal("1234.5000"));
        fields.put("decimalTiny", new BigDecimal("-1E-6000"));
        fields.put("at", Instant.parse("2026-03-04T05:06:07.123456789Z"));
        fields.put("before1970", Instant.parse("1969-12-31T23:59:59.999999999Z"));
        fields.put("none", null);
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("b", List.of(1, 2L, "three", Map.of("deep", true)));
        nested.put("a", Arrays.asList(null, 1.5));
        fields.put("nested", nested);
        fields.put("empty", Map.of());
        fields.put("emptyList", List.of());
        return MongoDocument.insert("item-ü-1", "readings", fields);
    }

    @Test
    void everyValueTypeRoundTripsExactlyInItsKeyOrder() throws Exception {
        MongoDocument item = everyType();

        MongoDocument back = codec.decode(codec.encode(item));

        assertThat(back).isEqualTo(item);
        assertThat(back.fields().keySet()).containsExactlyElementsOf(item.fields().keySet());
        assertThat(back.fields().get("int")).isInstanceOf(Integer.class);
        assertThat(back.fields().get("long")).isInstanceOf(Long.class);
        assertThat((BigDecimal) back.fields().get("decimal")).hasScaleOf(4);
        assertThat(Double.doubleToRawLongBits((Double) back.fields().get("nan"))).isEqualTo(0x7ff8000000000123L);
        assertThat(Double.doubleToRawLongBits((Double) back.fields().get("double")))
                .isEqualTo(Double.doubleToRawLongBits(-0.0));
        @SuppressWarnings("unchecked")
        Map<String, Object> nested = (Map<String, Object>) back.fields().get("nested");
        assertThat(nested.keySet()).containsExactly("b", "a");
    }

    @Test
    void anUpsertRoundTripsWithItsKeyFields() throws Exception {
        MongoDocument item = MongoDocument.upsert("a-7", "assets", Map.of("asset", "P-101", "line", 2, "state", "run"),
                List.of("line", "asset"));

        assertThat(codec.decode(codec.encode(item))).isEqualTo(item);
        assertThat(codec.decode(codec.encode(item)).keyFields()).containsExactly("line", "asset");
    }

    @Test
    void theFirstByteIsTheFormatVersion() {
        assertThat(codec.encode(everyType())[0]).isEqualTo((byte) MongoDocumentCodec.VERSION);
    }

    @Test
    void bytesOfAnotherVersionOrDamagedBytesArePermanentForThatItem() {
        byte[] good = codec.encode(everyType());

        byte[] otherVersion = good.clone();
        otherVersion[0] = 2;
        assertThatThrownBy(() -> codec.decode(otherVersion)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("format version 2");
        assertThatThrownBy(() -> codec.decode(new byte[0])).isInstanceOf(PermanentException.class);
        for (int length = 1; length < good.length; length += 7) {
            byte[] truncated = Arrays.copyOf(good, length);
            assertThatThrownBy(() -> codec.decode(truncated)).as("truncated to %d", length)
                    .isInstanceOf(PermanentException.class);
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> codec.decode(longer)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("left over");
        byte[] hugeLength = {1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F};
        assertThatThrownBy(() -> codec.decode(hugeLength)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("exceeds");
    }

    @Test
    void damageThatStillParsesIsCaughtByTheDocumentRules() {
        MongoDocument item = MongoDocument.insert("i", "c", Map.of("v", 1));
        byte[] bytes = codec.encode(item);
        bytes[4] = '$'; // the collection name "c" becomes "$"

        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("collection");
    }

    @Test
    void aPreviewIsShortShellLikeText() {
        MongoDocument item = MongoDocument.insert("a-1", "readings", new LinkedHashMap<>(Map.of("tag", "L1/Speed")));
        assertThat(codec.preview(item)).isEqualTo("readings insert {_id: \"a-1\", tag: \"L1/Speed\"}");

        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("asset", "P-101");
        fields.put("n", 3L);
        fields.put("d", new BigDecimal("1.50"));
        fields.put("at", Instant.parse("2026-01-01T00:00:00Z"));
        fields.put("list", List.of(1, true));
        assertThat(codec.preview(MongoDocument.upsert("a-7", "assets", fields, List.of("asset"))))
                .isEqualTo("assets upsert by [asset] {asset: \"P-101\", n: NumberLong(3), d: NumberDecimal(\"1.50\"),"
                        + " at: ISODate(\"2026-01-01T00:00:00Z\"), list: [1, true]} (item a-7)");

        MongoDocument big = MongoDocument.insert("b", "c", Map.of("text", "x".repeat(10_000)));
        assertThat(codec.preview(big)).hasSize(DocumentPreview.MAX_CHARS).endsWith("…");
    }
}
