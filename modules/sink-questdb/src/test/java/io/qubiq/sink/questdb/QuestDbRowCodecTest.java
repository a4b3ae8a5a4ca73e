package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.PermanentException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
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
        version[1] = 3;
        byte[] magic = valid.clone();
        magic[0] = 'X';

        assertThatThrownBy(() -> codec.decode(trailing)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("trailing");
        assertThatThrownBy(() -> codec.decode(version)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("version 3");
        assertThatThrownBy(() -> codec.decode(magic)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("magic");
    }

    @Test
    void bytesThatDecodeToAnInvalidRowAreRejected() {
        RowBytesWriter out = new RowBytesWriter();
        out.writeByte(QuestDbRowCodec.MAGIC);
        out.writeByte(QuestDbRowCodec.VERSION_1);
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

    /** {@link #everyColumnType()} as format version 1 wrote it (buffers from before version 2 hold such records). */
    private static final String EVERY_COLUMN_TYPE_V1 = "51010c706c616e742e6c696e655f31bffb9ecd06959aef3a0203746167114c69"
            + "6e65312f4d6f746f722f5370656564077175616c69747904676f6f6407026f6b420105636f756e744cffffffffffffffffff01"
            + "05736d616c6c4c540576616c756544bf202e4b6ce5dc6805726174696f443fd00000000000000474657874532ec3bc6ec3af63"
            + "c3b664c3a9202271756f746564222c20776974680a6e65776c696e6520616e64203d207369676e730b736f757263655f7469"
            + "6d65540101";

    @Test
    void recordsOfFormatVersionOneStillDecode() throws Exception {
        byte[] v1 = HexFormat.of().parseHex(EVERY_COLUMN_TYPE_V1);

        QuestDbRow decoded = codec.decode(v1);

        assertThat(decoded).isEqualTo(everyColumnType());
        assertThat(decoded.columns().keySet())
                .containsExactly("ok", "count", "small", "value", "ratio", "text", "source_time");
        assertThat(codec.encode(decoded)[1]).as("re-encoded in the current version").isEqualTo(QuestDbRowCodec.VERSION);
    }

    @Test
    void rowsOfOneShapeShareTheirDecodedNamesAndEncodeLikeBuilderRows() throws Exception {
        QuestDbRow.Layout layout = QuestDbRow.Layout.of("samples", List.of("tag"), List.of("value", "quality"));
        QuestDbRow a = layout.row(Instant.parse("2026-01-01T00:00:00Z"), "a/b", 1.5, 0L);
        QuestDbRow b = layout.row(Instant.parse("2026-01-01T00:00:01Z"), "a/c", 2.5, 3L);
        QuestDbRow built = QuestDbRow.builder("samples", Instant.parse("2026-01-01T00:00:00Z"))
                .symbol("tag", "a/b").column("value", 1.5).column("quality", 0L).build();

        QuestDbRow decodedA = codec.decode(codec.encode(a));
        QuestDbRow decodedB = codec.decode(codec.encode(b));

        assertThat(decodedA).isEqualTo(a);
        assertThat(decodedB).isEqualTo(b);
        assertThat(decodedB.fieldNames()).isSameAs(decodedA.fieldNames());
        assertThat(codec.encode(built)).isEqualTo(codec.encode(a));
    }

    @Test
    void interleavedShapesOfManyTablesDecodeToTheirOwnRows() throws Exception {
        List<QuestDbRow> rows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            QuestDbRow.Builder row = QuestDbRow.builder("table_" + (i % 97), Instant.ofEpochSecond(i))
                    .symbol("tag", "t" + (i % 13));
            for (int c = 0; c <= i % 5; c++) {
                row.column("c" + c + "_" + (i % 7), (long) i * c);
            }
            rows.add(row.build());
        }
        List<byte[]> encoded = rows.stream().map(codec::encode).toList();

        for (int i = 0; i < rows.size(); i++) {
            assertThat(codec.decode(encoded.get(i))).isEqualTo(rows.get(i));
        }
    }

    @Test
    void shapeBlocksThatDoNotHoldExactlyAValidShapeAreRejected() {
        assertThatThrownBy(() -> codec.decode(withShape(shape("bad/table", List.of(), List.of("v")), 'L')))
                .isInstanceOf(PermanentException.class).hasMessageContaining("table name");
        assertThatThrownBy(() -> codec.decode(withShape(shape("t", List.of(), List.of("a-b")), 'L')))
                .isInstanceOf(PermanentException.class).hasMessageContaining("column name");
        byte[] trailing = Arrays.copyOf(shape("t", List.of(), List.of("v")), shape("t", List.of(), List.of("v")).length
                + 1);
        assertThatThrownBy(() -> codec.decode(withShape(trailing, 'L')))
                .isInstanceOf(PermanentException.class).hasMessageContaining("trailing");
        assertThatThrownBy(() -> codec.decode(withShape(shape("t", List.of("v"), List.of("v")), 'L')))
                .isInstanceOf(PermanentException.class).hasMessageContaining("also a symbol");
        assertThatThrownBy(() -> codec.decode(withShape(shape("t", List.of(), List.of("v")), 'X')))
                .isInstanceOf(PermanentException.class).hasMessageContaining("type byte");
    }

    private static byte[] shape(String table, List<String> symbols, List<String> columns) {
        RowBytesWriter out = new RowBytesWriter();
        out.writeString(table);
        out.writeVarLong(symbols.size());
        symbols.forEach(out::writeString);
        out.writeVarLong(columns.size());
        columns.forEach(out::writeString);
        return out.toByteArray();
    }

    /** A version 2 record with {@code shape} and, for its single column, a value of {@code type} 1L. */
    private static byte[] withShape(byte[] shape, char type) {
        RowBytesWriter out = new RowBytesWriter();
        out.writeByte(QuestDbRowCodec.MAGIC);
        out.writeByte(QuestDbRowCodec.VERSION);
        out.writeVarLong(shape.length);
        out.writeBytes(shape);
        out.writeVarLong(0);
        out.writeVarLong(0);
        out.writeByte((byte) type);
        out.writeZigZag(1);
        return out.toByteArray();
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
        out.writeByte(QuestDbRowCodec.VERSION_1);
        out.writeString(table);
        out.writeVarLong(0);
        out.writeVarLong(0);
        return out;
    }
}
