package io.qubiq.losses;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.event.LossReason;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A day file written by format version 1 (stored in {@code fixtures/ledger-v1/}) reads the same
 * forever: a change to the layout that would misread it fails here, and needs a new version.
 */
class LedgerFormatFixtureTest {

    @TempDir
    Path dir;

    @Test
    void aVersion1DayFileIsReadWithEveryField() throws IOException {
        String name = "losses-2026-11-30.ledger";
        try (InputStream fixture = Objects.requireNonNull(getClass().getResourceAsStream("/fixtures/ledger-v1/" + name))) {
            Files.copy(fixture, dir.resolve(name));
        }
        try (LossLedger ledger = LossLedger.open(dir, LossLedger.DEFAULT_MAX_BYTES)) {
            LossReport report = ledger.query(LossQuery.all());
            assertThat(report.damage()).isEqualTo(LedgerDamage.NONE);
            assertThat(report.totals()).containsExactly(
                    new DayTotal(java.time.LocalDate.parse("2026-11-30"), 159, 61536, 3));
            LossEntry drop = entry(report, LossReason.DROP_OLDEST);
            assertThat(drop.minute()).isEqualTo(Instant.parse("2026-11-30T02:15:00Z"));
            assertThat(drop.firstAt()).isEqualTo(Instant.parse("2026-11-30T02:15:10.250Z"));
            assertThat(drop.component()).isEqualTo("channel");
            assertThat(drop.connection()).isEqualTo("db");
            assertThat(drop.items()).isEqualTo(120);
            assertThat(drop.bytes()).isEqualTo(61440);
            assertThat(drop.firstSequence()).isEqualTo(88121);
            assertThat(drop.lastSequence()).isEqualTo(88240);
            assertThat(drop.tag()).isEmpty();
            assertThat(drop.who()).isEmpty();
            assertThat(drop.detail()).isEqualTo("120 oldest items dropped at the limit");
            assertThat(entry(report, LossReason.OPERATOR_DROP).who()).contains("erin");
            assertThat(entry(report, LossReason.TAG_BUS_OVERFLOW).tag()).contains("line1/oven/température");
        }
    }

    private static LossEntry entry(LossReport report, LossReason reason) {
        return report.entries().stream().filter(e -> e.reason() == reason).findFirst().orElseThrow();
    }
}
