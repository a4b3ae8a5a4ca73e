package io.qubiq.app.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.console.AuditAccess;
import io.qubiq.testkit.http.ConsoleClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Requests without credentials against a whole gateway cannot rotate its audit journal. */
class AuditFloodTest {

    @TempDir
    Path dir;

    private static AuditAccess.Query query(Optional<String> action, Optional<String> outcome) {
        return new AuditAccess.Query(Optional.empty(), Optional.empty(), Optional.empty(), action, outcome,
                Optional.empty(), OptionalLong.empty(), 1000);
    }

    /**
     * Catches the unauthenticated journal flood: every refused {@code POST /api/v1/setup} and throttled
     * sign-in was one fsynced entry, and 8,000 of them on a 1 MiB journal deleted the segment holding the
     * administrator's creation. With min_age_days 0 (retention by size alone), the refusal digest by
     * itself must keep the journal small: the creation stays, and the 8,000 refusals (sent within two
     * minutes) become at most two minutes' worth of entries (54 each).
     */
    @Test
    void eightThousandRefusedRequestsLeaveTheAdministratorsCreationAndFewEntries() throws Exception {
        GatewayConfig config = ConfigLoader.parse("test.yaml", TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                audit:
                  max_bytes: 1048576
                  segment_bytes: 65536
                  min_age_days: 0
                """, GatewayConfig.class, Map.of());
        DataDirectory data = DataDirectory.open(dir.resolve("data"));
        Gateway gateway = new Gateway(config, data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        try {
            ConsoleClient anonymous = ConsoleClient.anonymous("http://127.0.0.1:" + gateway.console().port());
            long started = System.nanoTime();
            for (int i = 0; i < 4000; i++) {
                assertThat(anonymous.post("/api/v1/setup", "{\"token\":\"setup_guess" + i
                        + "\",\"user\":\"eve\",\"password\":\"eve-password-long\"}").statusCode()).isEqualTo(409);
                assertThat(anonymous.signIn(TestOperators.ADMIN, "guess-" + i).statusCode()).isIn(401, 429);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("sent within two minutes")
                    .isLessThan(Duration.ofMinutes(2));

            List<AuditAccess.Entry> created = gateway.audit().query(query(Optional.of("user_create"),
                    Optional.of("created from the configured admin password"))).entries();
            assertThat(created).singleElement().satisfies(e -> assertThat(e.seq()).isEqualTo(1));
            AuditAccess.Page all = gateway.audit().query(query(Optional.empty(), Optional.empty()));
            assertThat(all.next()).isEmpty();
            assertThat(all.entries()).as("entries for 8,000 refusals").hasSizeLessThanOrEqualTo(1 + 1 + 2 * 54);
        } finally {
            assertThat(gateway.lifecycle().stopAll(Duration.ofSeconds(30)).timedOut()).isFalse();
            gateway.closeMetrics();
            data.close();
        }
    }
}
