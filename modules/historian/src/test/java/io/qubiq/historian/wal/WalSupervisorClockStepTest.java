package io.qubiq.historian.wal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.time.ManualTicker;
import io.qubiq.questdb.exec.ExecClient;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The automatic resume backoff of a suspended table runs on the monotonic ticker. QuestDB's {@code /exec}
 * is played by a small HTTP server that reports one table suspended for a full disk and records the
 * resumes it is sent; polls are taken by hand.
 */
class WalSupervisorClockStepTest {

    static final Instant T0 = Instant.parse("2026-03-29T00:30:00Z");
    static final Duration HOUR = Duration.ofHours(1);
    static final String TABLE = "plant_values";

    final ManualTicker ticker = new ManualTicker();
    volatile Instant wall = T0;
    final Clock clock = new Clock() {
        @Override
        public Instant instant() {
            return wall;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    };
    final List<String> resumes = new CopyOnWriteArrayList<>();
    HttpServer questDb;
    WalSupervisor supervisor;

    @BeforeEach
    void start() throws Exception {
        questDb = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        questDb.createContext("/exec", exchange -> {
            String query = URLDecoder.decode(exchange.getRequestURI().getRawQuery().substring("query=".length()),
                    StandardCharsets.UTF_8);
            String body;
            if (query.contains("wal_tables()")) {
                body = "{\"columns\":[{\"name\":\"name\"},{\"name\":\"suspended\"},{\"name\":\"writerTxn\"},"
                        + "{\"name\":\"sequencerTxn\"},{\"name\":\"errorTag\"},{\"name\":\"errorMessage\"}],"
                        + "\"dataset\":[[\"" + TABLE + "\",true,5,6,\"DISK FULL\",\"no space left on device\"]]}";
            } else {
                resumes.add(query);
                body = "{\"ddl\":\"OK\"}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        questDb.start();
        ExecClient exec = ExecClient.of("127.0.0.1:" + questDb.getAddress().getPort(), Duration.ofSeconds(5));
        supervisor = new WalSupervisor(exec, List.of(TABLE),
                WalSupervisorConfig.defaults().withPolling(5000, 1000, 60_000).withResumeAttemptsPerTxn(10),
                EventPublisher.none(), clock, ticker);
    }

    @AfterEach
    void stop() {
        questDb.stop(0);
    }

    /** Time passes: the wall clock and the ticker move together. */
    void pass(Duration duration) {
        ticker.advance(duration);
        wall = wall.plus(duration);
    }

    @Test
    void aWallClockStepBackOfAnHourDoesNotPutOffTheNextResume() throws Exception {
        // Regression: the wait before a resume was "suspended since + backoff" on the wall clock, so after a
        // step back of one hour a table suspended for a full disk stayed suspended for an hour after the disk
        // was freed, while the historian's rows queued up in its write-ahead log.
        supervisor.pollOnce();
        assertThat(resumes).isEmpty();

        wall = wall.minus(HOUR);
        pass(Duration.ofMillis(999));
        supervisor.pollOnce();
        assertThat(resumes).as("999 ms of a 1 s backoff").isEmpty();
        pass(Duration.ofMillis(1));
        supervisor.pollOnce();

        assertThat(resumes).containsExactly("ALTER TABLE " + TABLE + " RESUME WAL");
    }

    @Test
    void aWallClockStepForwardOfAnHourDoesNotCutTheBackoffShort() throws Exception {
        // Regression: on the wall clock, a step forward of one hour made every backoff look long over, so a table
        // that suspended again at once was resumed on every poll (hammering a full disk) until the attempts ran out
        // and it was declared poison.
        supervisor.pollOnce();
        pass(Duration.ofSeconds(1));
        supervisor.pollOnce();
        assertThat(resumes).hasSize(1);

        wall = wall.plus(HOUR);
        pass(Duration.ofMillis(1));
        supervisor.pollOnce();
        assertThat(resumes).as("the second wait is 2 s on the ticker, not over at the step").hasSize(1);
        pass(Duration.ofMillis(1998));
        supervisor.pollOnce();
        assertThat(resumes).hasSize(1);
        pass(Duration.ofMillis(1));
        supervisor.pollOnce();

        assertThat(resumes).hasSize(2);
    }
}
