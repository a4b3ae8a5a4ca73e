package io.qubiq.questdb.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reader of {@code /exec} answers, on answers shaped as QuestDB 9.3 sends them (ExecClientTest
 * reads real ones from a running server) and on the edge cases such answers can carry.
 */
class JsonTest {

    @Test
    void anExecAnswerBecomesOrderedMapsListsLongsDoublesAndNulls() {
        String answer = "{\"query\":\"select n, v, ok, s from t\",\"columns\":[{\"name\":\"n\",\"type\":\"LONG\"},"
                + "{\"name\":\"v\",\"type\":\"DOUBLE\"},{\"name\":\"ok\",\"type\":\"BOOLEAN\"},"
                + "{\"name\":\"s\",\"type\":\"VARCHAR\"}],\"timestamp\":-1,"
                + "\"dataset\":[[1,0.5,true,\"a\"],[null,null,false,null]],\"count\":2}";

        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) Json.parse(answer);

        assertThat(json.keySet()).containsExactly("query", "columns", "timestamp", "dataset", "count");
        assertThat(json.get("timestamp")).isEqualTo(-1L);
        assertThat(json.get("dataset")).isEqualTo(List.of(List.of(1L, 0.5, true, "a"),
                Arrays.asList(null, null, false, null)));
        SqlResult result = SqlResult.of(json);
        assertThat(result.columns()).containsExactly("n", "v", "ok", "s");
        assertThat(result.types()).containsExactly("LONG", "DOUBLE", "BOOLEAN", "VARCHAR");
        assertThat(result.rows().get(1)).containsExactly(null, null, false, null);
    }

    @Test
    void aDdlAnswerIsAnEmptyResult() {
        SqlResult result = SqlResult.of((Map<?, ?>) Json.parse("{\"ddl\":\"OK\"}"));

        assertThat(result.columns()).isEmpty();
        assertThat(result.rows()).isEmpty();
    }

    @Test
    void everyEscapeOfAStringIsDecoded() {
        assertThat(Json.parse("\"q\\\" b\\\\ s\\/ n\\n t\\t r\\r b\\b f\\f\"")).isEqualTo("q\" b\\ s/ n\n t\t r\r b\b f\f");
    }

    @Test
    void unicodeArrivesRawOrAsEscapesIncludingSurrogatePairs() {
        assertThat(Json.parse("\"Kühler ünïcödé 温度\"")).isEqualTo("Kühler ünïcödé 温度");
        assertThat(Json.parse("\"\\u00fc\\u6e29 \\ud83d\\ude00 \\u0000\"")).isEqualTo("ü温 \uD83D\uDE00 \u0000");
    }

    @Test
    void integersAreLongsToTheirLimitsAndEverythingElseIsADouble() {
        assertThat(Json.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(Json.parse("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(Json.parse("0")).isEqualTo(0L);
        assertThat(Json.parse("-0.0")).isEqualTo(-0.0);
        assertThat(Json.parse("1.5E3")).isEqualTo(1500.0);
        assertThat(Json.parse("1e-7")).isEqualTo(1e-7);
        assertThat(Json.parse("1.7976931348623157E308")).isEqualTo(Double.MAX_VALUE);
    }

    @Test
    void aNumberOutsideTheLongRangeIsRefusedInsteadOfRounded() {
        assertThatThrownBy(() -> Json.parse("9223372036854775808")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad number");
    }

    @Test
    void nestedArraysKeepTheirShapeIncludingEmptyOnes() {
        assertThat(Json.parse("[[1.0,2.0],[3.5,-4.0]]")).isEqualTo(List.of(List.of(1.0, 2.0), List.of(3.5, -4.0)));
        assertThat(Json.parse("[ [ ] , [ [ ] ] ]")).isEqualTo(List.of(List.of(), List.of(List.of())));
        assertThat(Json.parse("{}")).isEqualTo(Map.of());
    }

    @Test
    void blanksAroundTokensAreSkipped() {
        assertThat(Json.parse(" \n{ \"a\" :\t[ 1 , null ] }\r\n")).isEqualTo(Map.of("a", Arrays.asList(1L, null)));
    }

    @Test
    void malformedAnswersAreRefusedWithTheirOffset() {
        for (String malformed : List.of("", "{\"a\":1} x", "\"unterminated", "\"bad \\x escape\"", "\"\\u12\"",
                "{\"a\" 1}", "[1,2", "nul", "tru", "{a:1}", "<html>")) {
            assertThatThrownBy(() -> Json.parse(malformed)).as(malformed).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("malformed JSON from QuestDB at offset");
        }
    }
}
