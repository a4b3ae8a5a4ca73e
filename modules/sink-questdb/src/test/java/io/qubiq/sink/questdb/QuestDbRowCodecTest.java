package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.PermanentException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class QuestDbRowCodecTest {

    private final QuestDbRowCodec codec = new QuestDbRowCodec();

    static QuestDbRow everyColumnType() {
        return QuestDbRow.builder("plant.line_1", Instant.parse("2026-03-04T05:06:07.123456789Z"))
                .symbol("tag", "Line1/Motor/Speed")
                .symbol("quality", "good")
                .column("ok", true)
                .column("count", Long.MIN_VALUE)
                .column("small", 42)
                .column("value", -1234.5e-7)
                .column("ratio", 0.25f)
                .column("text", "ünïcödé \"quoted\", with\nnewline and = signs")
                .column("source_time", Instant.parse("1969-12-31T23:59:59.000000001Z"))
                .build();
    }

    @Test
    void everyColumnTypeRoundTripsExactlyAndInOrder() throws Exception {
        QuestDbRow row = everyColumnType();

        QuestDbRow decoded = codec.decode(codec.encode(row));

        assertThat(decoded).isEqualTo(row);
        assertThat(decoded.symbols().keySet()).containsExactly("tag", "quality");
        assertThat(decoded.columns().keySet())
                .containsExactly("ok", "count", "small", "value", "ratio", "text", "source_time");
        assertThat(decoded.columns().get("small")).isEqualTo(42L);
        assertThat(decoded.columns().get("ratio")).isEqualTo(0.25d);
    }

    @Test
    void extremeValuesRoundTrip() throws Exception {
        QuestDbRow row = QuestDbRow.builder("t", QuestDbRow.LATEST)
                .column("max", Long.MAX_VALUE)
                .column("nan", Double.NaN)
                .column("neg_zero", -0.0d)
                .column("empty", "")
                .column("far", Instant.MIN)
                .build();

        assertThat(codec.decode(codec.encode(row))).isEqualTo(row);
    }

    @Test
    void encodingIsCompact() {
        QuestDbRow row = QuestDbRow.builder("samples", Instant.parse("2026-01-01T00:00:00Z"))
                .symbol("tag", "a/b").column("value", 1.5).build();

        assertThat(codec.encode(row)).hasSizeLessThanOrEqualTo(48);
    }

    @Test
    void garbageIsAPermanentFailureNotACrash() {
        byte[] valid = codec.encode(everyColumnType());
        Random random = new Random(7);
        for (int length = 0; length < valid.length; length++) {
            byte[] truncated = Arrays.copyOf(valid, length);
            assertThatThrownBy(() -> codec.decode(truncated)).isInstanceOf(PermanentException.class);
        }
        for (int i = 0; i < 200; i++) {
            byte[] noise = new byte[random.nextInt(64)];
            random.nextBytes(noise);
            assertThatThrownBy(() -> codec.decode(noise)).isInstanceOf(PermanentException.class);
        }
    }

    @Test
    void trailingBytesUnknownVersionAndBadMagicAreRejected() {
        byte[] valid = codec.encode(everyColumnType());
        byte[] trailing = Arrays.copyOf(valid, valid.length + 1);
        byte[] version = valid.clone();
        version[1] = 2;
        byte[] magic = valid.clone();
        magic[0] = 'X';

        assertThatThrownBy(() -> codec.decode(trailing)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("trailing");
        assertThatThrownBy(() -> codec.decode(version)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> codec.decode(magic)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("magic");
    }

    @Test
    void bytesThatDecodeToAnInvalidRowAreRejected() {
        RowBytesWriter out = new RowBytesWriter();
        out.writeByte(QuestDbRowCodec.MAGIC);
        out.writeByte(QuestDbRowCodec.VERSION);
        out.writeString("bad/table");
        out.writeVarLong(0);
        out.writeVarLong(0);
        out.writeVarLong(0);
        out.writeVarLong(1);
        out.writeString("v");
        out.writeByte((byte) 'L');
        out.writeZigZag(1);

        assertThatThrownBy(() -> codec.decode(out.toByteArray())).isInstanceOf(PermanentException.class)
                .hasMessageContaining("table name");
    }

    @Test
    void previewReadsLikeALineProtocolLine() {
        QuestDbRow row = QuestDbRow.builder("samples", Instant.parse("2026-01-01T00:00:00Z"))
                .symbol("tag", "a/b").column("value", 1.5).column("n", 3).column("s", "x").column("ok", false)
                .build();

        assertThat(codec.preview(row))
                .isEqualTo("samples,tag=a/b value=1.5,n=3i,s=\"x\",ok=false 2026-01-01T00:00:00Z");
    }

    @Test
    void namesAndSymbolValuesDecodedAgainAreTheSameStringsAndStringColumnsAreFresh() throws Exception {
        QuestDbRow row = QuestDbRow.builder("samples", Instant.parse("2026-01-01T00:00:00Z"))
                .symbol("tag", "line1/speed").column("value", 1.5).column("note", "free text").build();
        byte[] bytes = codec.encode(row);

        QuestDbRow first = codec.decode(bytes);
        QuestDbRow second = codec.decode(bytes);

        assertThat(second).isEqualTo(row);
        assertThat(second.table()).isSameAs(first.table());
        assertThat(second.symbols().get("tag")).isSameAs(first.symbols().get("tag"));
        assertThat(second.columns().keySet().iterator().next()).isSameAs(first.columns().keySet().iterator().next());
        assertThat(second.columns().get("note")).isEqualTo("free text").isNotSameAs(first.columns().get("note"));
    }

    @Test
    void nonAsciiNamesAndValuesAndLongStringsRoundTrip() throws Exception {
        String longText = "ä".repeat(300) + "x".repeat(5000);
        QuestDbRow row = QuestDbRow.builder("température_ligne", Instant.parse("2026-01-01T00:00:00Z"))
                .symbol("capteur", "Öfen/Zone 1 – heiß").column("wert_°C", 21.5).column("text", longText)
                .build();

        QuestDbRow decoded = codec.decode(codec.encode(row));

        assertThat(decoded).isEqualTo(row);
        assertThat(codec.decode(codec.encode(row))).isEqualTo(row); // again, through the string cache
    }

    @Test
    void malformedUtf8IsRejectedInNamesAndValues() {
        byte[] badName = rowWithString(new byte[] {'v', (byte) 0xC3}, "ok".getBytes());
        byte[] badValue = rowWithString("v".getBytes(), new byte[] {(byte) 0xFF, 'a'});

        assertThatThrownBy(() -> codec.decode(badName)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("malformed UTF-8");
        assertThatThrownBy(() -> codec.decode(badValue)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("malformed UTF-8");
    }

    @Test
    void duplicateNamesInTheBytesAreRejected() {
        RowBytesWriter out = header("t");
        out.writeVarLong(1);
        out.writeString("v");
        out.writeString("x");
        out.writeVarLong(1);
        out.writeString("v");
        out.writeByte((byte) 'L');
        out.writeZigZag(1);

        assertThatThrownBy(() -> codec.decode(out.toByteArray())).isInstanceOf(PermanentException.class)
                .hasMessageContaining("also a symbol");
    }

    /** A row of table t with one string column whose name and value are the given raw bytes. */
    private static byte[] rowWithString(byte[] name, byte[] value) {
        RowBytesWriter out = header("t");
        out.writeVarLong(0);
        out.writeVarLong(1);
        out.writeVarLong(name.length);
        for (byte b : name) {
            out.writeByte(b);
        }
        out.writeByte((byte) 'S');
        out.writeVarLong(value.length);
        for (byte b : value) {
            out.writeByte(b);
        }
        return out.toByteArray();
    }

    private static RowBytesWriter header(String table) {
        RowBytesWriter out = new RowBytesWriter();
        out.writeByte(QuestDbRowCodec.MAGIC);
        out.writeByte(QuestDbRowCodec.VERSION);
        out.writeString(table);
        out.writeVarLong(0);
        out.writeVarLong(0);
        return out;
    }
}
