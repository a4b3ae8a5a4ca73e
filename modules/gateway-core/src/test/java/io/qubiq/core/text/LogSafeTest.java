package io.qubiq.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogSafeTest {

    @Test
    void aNewlineCannotStartAForgedLogLine() {
        String forged = "42\n2026-12-03 14:00:00,000 INFO  - admin sign_in user/admin: ok";

        assertThat(LogSafe.text(forged)).doesNotContain("\n")
                .isEqualTo("42\\n2026-12-03 14:00:00,000 INFO  - admin sign_in user/admin: ok");
    }

    @Test
    void everyControlCharacterAndInvisibleDirectionChangeIsEscaped() {
        assertThat(LogSafe.text("a\rb\tc\u0000d\u001be\u007ff\u0085g\u2028h\u202ei\u2066j"))
                .isEqualTo("a\\rb\\tc\\u0000d\\u001be\\u007ff\\u0085g\\u2028h\\u202ei\\u2066j");
    }

    @Test
    void aTypedBackslashIsEscapedSoItCannotPassForAnEscape() {
        assertThat(LogSafe.text("C:\\n")).isEqualTo("C:\\\\n");
    }

    @Test
    void printableTextIncludingNonAsciiLettersIsKept() {
        assertThat(LogSafe.text("Temperatur Ofen 3: 21,5 °C — ok")).isEqualTo("Temperatur Ofen 3: 21,5 °C — ok");
        assertThat(LogSafe.text(null)).isEqualTo("null");
        assertThat(LogSafe.text(12.5)).isEqualTo("12.5");
    }
}
