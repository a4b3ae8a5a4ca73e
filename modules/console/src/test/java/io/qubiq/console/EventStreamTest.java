package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.http.ConsoleClient;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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

    /** Would catch one user opening streams without bound, each costing the gateway a thread. */
    @Test
    void aUsersStreamBeyondTheLimitEndsTheirOldestOneAndNoOneElses() throws Exception {
        ConsoleClient viewer = console.as("viewer");
        ConsoleClient other = console.as("operator");
        java.util.List<Stream> streams = new java.util.ArrayList<>();
        try (Stream others = new Stream(other.openStream("/api/v1/events"))) {
            others.nextData("status");
            for (int i = 0; i < EventStream.MAX_STREAMS_PER_USER; i++) {
                Stream stream = new Stream(viewer.openStream("/api/v1/events"));
                streams.add(stream);
                stream.nextData("status");
            }

            Stream oneMore = new Stream(viewer.openStream("/api/v1/events"));
            streams.add(oneMore);

            assertThat(oneMore.nextData("status")).isNotEmpty();
            assertThatThrownBy(() -> streams.get(0).nextData("status")).as("the oldest ended")
                    .hasMessageContaining("stream ended");
            streams.get(1).nextData("status");
            others.nextData("status");
        } finally {
            for (Stream stream : streams) {
                stream.close();
            }
        }
    }

    /** Would catch a page's refresh on a timer (the WAL table's) keeping an unattended console signed in. */
    @Test
    void aBackgroundRefreshIsAnsweredButDoesNotKeepAnIdleSessionAlive() {
        Duration idle = Duration.ofMillis(io.qubiq.auth.AuthConfig.defaults().sessionIdleTimeoutMs());
        ConsoleClient viewer = console.as("viewer");
        console.ticker.advance(idle.minusMinutes(1));

        assertThat(viewer.getInBackground("/api/v1/tags").statusCode()).as("still signed in").isEqualTo(200);
        console.ticker.advance(Duration.ofMinutes(2));

        assertThat(viewer.getInBackground("/api/v1/tags").statusCode()).as("the refresh was not use").isEqualTo(401);
        assertThat(viewer.get("/api/v1/tags").statusCode()).isEqualTo(401);
    }

    @Test
    void aClientThatStopsReadingIsDisconnectedWhileAnotherKeepsGettingTicksOnTime() throws Exception {
        // Regression: one thread sent every event with blocking writes, so a client that did not read froze
        // the live updates of everybody.
        AtomicBoolean churning = new AtomicBoolean(true);
        Thread churn = new Thread(() -> {
            for (int round = 0; churning.get(); round++) {
                console.gateway.tags.clear();
                console.gateway.tags.addAll(manyTags(round)); // about 2 MB of JSON a tick, all changed
                sleep(Duration.ofMillis(400));
            }
        }, "test-tag-churn");
        ConsoleClient slow = console.as("viewer");
        ConsoleClient reader = console.as("viewer");
        try (Socket stalled = new Socket()) {
            stalled.setReceiveBufferSize(1024);
            stalled.connect(new InetSocketAddress("127.0.0.1", console.server.port()));
            stalled.getOutputStream().write(("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Accept: text/event-stream\r\nCookie: qubiq_session=" + slow.sessionId().orElseThrow()
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            churn.start();
            try (Stream stream = new Stream(reader.openStream("/api/v1/events"))) {
                stream.nextData("status");
                long longestGapMs = 0;
                long last = System.nanoTime();
                for (long end = last + 8_000_000_000L; System.nanoTime() < end; ) {
                    stream.nextData("status");
                    long now = System.nanoTime();
                    longestGapMs = Math.max(longestGapMs, (now - last) / 1_000_000);
                    last = now;
                }
                assertThat(longestGapMs).as("the reading client got a status event each tick").isLessThan(3_000);
            }
            assertThat(endsWithin(stalled, Duration.ofSeconds(5))).as("the stalled client was disconnected").isTrue();
        } finally {
            churning.set(false);
            churn.join();
            console.gateway.tags.clear();
            console.gateway.tags.add(value("plant/temperature", 20.5));
        }
    }

    private static List<TagValue> manyTags(int round) {
        List<TagValue> tags = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            tags.add(value("plant/area-" + (i % 10) + "/line-" + i + "/a-rather-long-tag-name-for-bulk", round + i / 1e4));
        }
        return tags;
    }

    /** Whether the server closed the connection: reading what it holds reaches its end (or a reset) in time. */
    private static boolean endsWithin(Socket socket, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        socket.setSoTimeout((int) limit.toMillis());
        byte[] buffer = new byte[1 << 16];
        try {
            while (System.nanoTime() < deadline) {
                if (socket.getInputStream().read(buffer) < 0) {
                    return true;
                }
            }
            return false;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (java.net.SocketException reset) {
            return true;
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
