package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.PermanentException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlRowCodecTest {

    private final SqlRowCodec codec = new SqlRowCodec();

    static SqlRow everyType() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("s", "grüße 'x' \u0000 ✓");
        p.put("ascii", "plain");
        p.put("i", Integer.MIN_VALUE);
        p.put("l", Long.MAX_VALUE);
        p.put("neg", -5L);
        p.put("d", -0.0);
        p.put("nan", Double.NaN);
        p.put("t", true);
        p.put("f", false);
        p.put("m", new BigDecimal("-12345678901234567890.000100"));
        p.put("ts", Instant.parse("1969-12-31T23:59:59.999999999Z"));
        p.put("nothing", null);
        return new SqlRow("r-1", "INSERT INTO t VALUES (:s, :i)", p);
    }

    @Test
    void everyValueTypeRoundTripsExactlyAndInOrder() throws Exception {
        SqlRow row = everyType();

        SqlRow decoded = codec.decode(codec.encode(row));

        assertThat(decoded).isEqualTo(row);
        assertThat(decoded.parameters().keySet()).containsExactlyElementsOf(row.parameters().keySet());
        assertThat(decoded.parameters().get("m")).isInstanceOf(BigDecimal.class)
                .satisfies(m -> assertThat(((BigDecimal) m).scale()).isEqualTo(6));
        assertThat(decoded.parameters().get("i")).isInstanceOf(Integer.class);
        assertThat(decoded.parameters().get("neg")).isInstanceOf(Long.class);
    }

    @Test
    void theFirstByteIsTheFormatVersion() {
        assertThat(codec.encode(everyType())[0]).isEqualTo((byte) 1);
    }

    @Test
    void aRowIsCompact() {
        SqlRow row = new SqlRow("42", "INSERT INTO r(v) VALUES (:v)", Map.of("v", 1.5));
        // version, item id, statement, count, name, type, 8 bytes
        assertThat(codec.encode(row)).hasSize(1 + 3 + 29 + 1 + 2 + 1 + 8);
    }

    @Test
    void badBytesArePermanentFailuresNeverOtherExceptions() {
        byte[] good = codec.encode(everyType());
        byte[] unknownVersion = good.clone();
        unknownVersion[0] = 2;
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        byte[] badType = codec.encode(new SqlRow("x", "SELECT :a", Map.of("a", true)));
        badType[badType.length - 1] = 'Z';
        byte[] badUtf8 = codec.encode(new SqlRow("é", "SELECT 1", Map.of()));
        badUtf8[2] = (byte) 0xFF;
        for (byte[] bad : new byte[][] {new byte[0], unknownVersion, trailing, badType, badUtf8,
                Arrays.copyOf(good, good.length / 2), {1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}}) {
            assertThatThrownBy(() -> codec.decode(bad)).isInstanceOf(PermanentException.class)
                    .hasMessageContaining("undecodable SQL row");
        }
        for (int cut = 0; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> codec.decode(truncated)).isInstanceOf(PermanentException.class);
        }
    }

    @Test
    void aDuplicatedParameterInTheBytesIsRejected() {
        byte[] one = codec.encode(new SqlRow("x", "SELECT :a", Map.of("a", true)));
        // count 1 -> 2 and the parameter repeated
        byte[] twice = Arrays.copyOf(one, one.length + 3);
        int countAt = one.length - 4;
        twice[countAt] = 2;
        System.arraycopy(one, countAt + 1, twice, one.length, 3);
        assertThatThrownBy(() -> codec.decode(twice)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("appears twice");
    }

    @Test
    void bytesNamingTheReservedItemIdOrAnInvalidParameterAreRejected() {
        byte[] bytes = codec.encode(new SqlRow("x", "SELECT :item_jd", Map.of("item_jd", true)));
        byte[] reserved = bytes.clone();
        reserved[reserved.length - 3] = 'i';
        byte[] invalid = bytes.clone();
        invalid[invalid.length - 8] = '-';

        assertThatThrownBy(() -> codec.decode(reserved)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("item_id");
        assertThatThrownBy(() -> codec.decode(invalid)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("invalid parameter name");
    }

    @Test
    void consecutiveRowsWithOneStatementShareTheDecodedStatement() throws Exception {
        SqlRow a = new SqlRow("a", "INSERT INTO t VALUES (:v)", Map.of("v", 1));
        SqlRow b = new SqlRow("b", "INSERT INTO t VALUES (:v)", Map.of("v", 2));
        SqlRow other = new SqlRow("c", "INSERT INTO u VALUES (:v)", Map.of("v", 3));

        SqlRow first = codec.decode(codec.encode(a));
        SqlRow second = codec.decode(codec.encode(b));
        SqlRow third = codec.decode(codec.encode(other));

        assertThat(second.statement()).isSameAs(first.statement());
        assertThat(third.statement()).isEqualTo(other.statement());
        assertThat(List.of(first, second, third)).containsExactly(a, b, other);
    }

    @Test
    void previewShowsTheStatementOnOneLineAndTheValues() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("tag", "it's");
        p.put("v", 2.5);
        p.put("ts", Instant.parse("2026-01-01T00:00:00Z"));
        p.put("n", null);
        p.put("m", new BigDecimal("1E+3"));
        SqlRow row = new SqlRow("r1", "INSERT INTO r(tag, v)\n   VALUES (:tag, :v)", p);

        assertThat(codec.preview(row)).isEqualTo("INSERT INTO r(tag, v) VALUES (:tag, :v) with item_id='r1',"
                + " tag='it''s', v=2.5, ts='2026-01-01T00:00:00Z', n=NULL, m=1000");
    }

    @Test
    void aLongPreviewIsClipped() {
        Map<String, Object> p = new HashMap<>();
        p.put("big", "x".repeat(5000));
        assertThat(codec.preview(new SqlRow("r", "SELECT :big", p))).hasSize(SqlRowCodec.PREVIEW_CHARS + 1).endsWith("…");
    }
}
