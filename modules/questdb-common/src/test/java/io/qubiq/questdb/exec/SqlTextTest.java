package io.qubiq.questdb.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class SqlTextTest {

    @Test
    void aLiteralDoublesItsQuotesAndKeepsUnicode() {
        assertThat(SqlText.literal("it's Kühler")).isEqualTo("'it''s Kühler'");
    }

    @Test
    void aLiteralWithAControlCharacterIsRefused() {
        assertThatThrownBy(() -> SqlText.literal("a\nb")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("control character in SQL literal at 1");
    }

    @Test
    void onlyPlainNamesAreIdentifiers() {
        assertThat(SqlText.identifier("history_Float64")).isEqualTo("history_Float64");
        assertThat(SqlText.isIdentifier("_x1")).isTrue();
        for (String name : new String[] {"1x", "a b", "a;drop", "", "a\"b", "ü"}) {
            assertThat(SqlText.isIdentifier(name)).as(name).isFalse();
            assertThatThrownBy(() -> SqlText.identifier(name)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aTimestampIsRenderedInMicrosecondsUtc() {
        assertThat(SqlText.timestamp(Instant.parse("2026-03-04T05:06:07.123456789Z")))
                .isEqualTo("'2026-03-04T05:06:07.123456Z'");
    }
}
