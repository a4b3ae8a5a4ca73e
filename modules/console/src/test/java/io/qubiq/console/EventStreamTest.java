package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.http.ConsoleClient;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/v1/events}: live status and tag values, filtered by permission, ended with the session. */
class EventStreamTest {

    @TempDir
    static Path dir;
    static ConsoleFixture console;

    @BeforeAll
    static void start() throws Exception {
        console = ConsoleFixture.start(dir);
        console.gateway.tags.add(value("plant/temperature", 20.5));
    }

    @AfterAll
    static void stop() {
        console.close();
    }

    static TagValue value(String path, double v) {
        Instant now = Instant.now();
        return new TagValue(TagPath.of(path), v, DataType.FLOAT64, Quality.GOOD, now, now);
    }

    @Test
    void aViewerGetsStatusAndTagsAtOnceThenEachChangedTag() throws Exception {
        ConsoleClient viewer = console.as("viewer");
        try (Stream stream = new Stream(viewer.openStream("/api/v1/events"))) {
            assertThat(stream.answer.statusCode()).isEqualTo(200);
            assertThat(stream.answer.headers().firstValue("Content-Type")).hasValueSatisfying(
                    t -> assertThat(t).startsWith("text/event-stream"));
            assertThat(stream.nextData("status")).contains("\"connection\":\"db\"");
            assertThat(stream.nextData("tags")).contains("\"path\":\"plant/temperature\"", "\"value\":20.5");

            console.gateway.tags.clear();
            console.gateway.tags.add(value("plant/temperature", 21.5));

            // a tick may still carry the first value (the stream's change tracking predates this subscriber)
            assertThat(stream.nextDataContaining("tags", "\"value\":21.5")).contains("\"path\":\"plant/temperature\"");
        }
    }

    @Test
    void aUserWithoutViewTagsNeverReceivesTagValues() throws Exception {
        ConsoleClient nobody = console.as("nobody");
        try (Stream stream = new Stream(nobody.openStream("/api/v1/events"))) {
            assertThat(stream.answer.statusCode()).isEqualTo(200);
            List<String> events = stream.eventsFor(Duration.ofMillis(2_500));
            assertThat(events).doesNotContain("tags", "status");
        }
    }

    @Test
    void signingOutEndsTheStreamWithASignedOutEvent() throws Exception {
        ConsoleClient viewer = console.as("viewer");
        try (Stream stream = new Stream(viewer.openStream("/api/v1/events"))) {
            stream.nextData("status");
            assertThat(viewer.delete("/api/v1/session").statusCode()).isEqualTo(204);
            assertThat(stream.nextData("signed_out")).isEqualTo("{}");
        }
    }

    @Test
    void theStreamDoesNotKeepAnIdleSessionAliveButApiCallsDo() throws Exception {
        // Regression: each tick resolved the session as a request would, so an open console tab never idled out.
        Duration idle = Duration.ofMillis(io.qubiq.auth.AuthConfig.defaults().sessionIdleTimeoutMs());
        ConsoleClient viewer = console.as("viewer");
        try (Stream stream = new Stream(viewer.openStream("/api/v1/events"))) {
            stream.nextData("status");
            console.ticker.advance(idle.minusMinutes(1));
            assertThat(viewer.get("/api/v1/tags").statusCode()).as("a request is use").isEqualTo(200);
            console.ticker.advance(idle.minusMinutes(1));
            stream.nextData("status");
            stream.nextData("status");
            assertThat(stream.answer.statusCode()).isEqualTo(200);

            console.ticker.advance(Duration.ofMinutes(2));

            long before = System.nanoTime();
            assertThat(stream.nextData("signed_out")).isEqualTo("{}");
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofMillis(2 * EventStream.TICK_MS + 500));
            assertThat(viewer.get("/api/v1/tags").statusCode()).as("the session idled out").isEqualTo(401);
        }
    }

    /** Reads events off a stream on a helper thread, with a deadline per read. */
    static final class Stream implements AutoCloseable {
        final HttpResponse<InputStream> answer;
        final BufferedReader reader;

        Stream(HttpResponse<InputStream> answer) {
            this.answer = answer;
            this.reader = new BufferedReader(new InputStreamReader(answer.body(), StandardCharsets.UTF_8));
        }

        /** The data of the next event named {@code name}, skipping others; fails after 10 s. */
        String nextData(String name) throws Exception {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    String event = null;
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        if (line.startsWith("event:")) {
                            event = line.substring(6).strip();
                        } else if (line.startsWith("data:") && name.equals(event)) {
                            return line.substring(5).strip();
                        }
                    }
                    throw new AssertionError("stream ended before event " + name);
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }).get(10, TimeUnit.SECONDS);
        }

        /** The data of the next event named {@code name} whose data contains {@code text}; fails after 10 s. */
        String nextDataContaining(String name, String text) throws Exception {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline) {
                String data = nextData(name);
                if (data.contains(text)) {
                    return data;
                }
            }
            throw new AssertionError("no " + name + " event with " + text + " within 10 s");
        }

        /** The names of the events that arrive within {@code window}. */
        List<String> eventsFor(Duration window) throws Exception {
            List<String> names = new java.util.concurrent.CopyOnWriteArrayList<>();
            CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> {
                try {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        if (line.startsWith("event:")) {
                            names.add(line.substring(6).strip());
                        }
                    }
                } catch (java.io.IOException ignored) {
                    // closed by the test
                }
            });
            try {
                reading.get(window.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException expected) {
                // the window passed: that is the point
            }
            return new ArrayList<>(names);
        }

        @Override
        public void close() throws Exception {
            answer.body().close();
        }
    }
}
