package io.qubiq.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.auth.Authenticator;
import io.qubiq.auth.Permission;
import io.qubiq.auth.Principal;
import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.lifecycle.Periodic;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/v1/events}: live updates as server-sent events for the console's pages.
 * <ul>
 *   <li>{@code status}: every channel's store-and-forward status, each second (View connections);</li>
 *   <li>{@code tags}: the tags whose latest value changed since the previous event, each second; the
 *       first event after connecting holds every tag (View tags);</li>
 *   <li>{@code connections}: every device connection, every other second (View connections);</li>
 *   <li>{@code alarm}: each alarm raise or clear as it is seen, within a second (View connections);</li>
 *   <li>{@code signed_out}: the session ended (signed out, timed out, user disabled); the stream closes.</li>
 * </ul>
 * Each tick re-resolves every subscriber's credentials, so a role change applies within a second and an
 * ended session stops its stream. That check is not use of the session: only API requests restart its
 * idle timer, so the stream of a console left open ends within a tick of the idle timeout. Payloads are serialized once per tick and shared by all subscribers.
 *
 * <p>Delivery: each subscriber has its own bounded {@link EventOutbox} and sender thread, so a client that
 * reads slowly or not at all delays nobody else; one that falls behind (its outbox full) is disconnected,
 * and its browser reconnects and starts again from a fresh snapshot. One user keeps at most
 * {@value #MAX_STREAMS_PER_USER} streams (each costs a thread): opening one more ends that user's oldest.
 *
 * <p>Threading: one scheduler thread ({@code console-events}) builds every event and hands it to the
 * outboxes without waiting; each outbox's thread writes to its client. Jetty threads only add
 * subscribers. A client that went away, fell behind or was signed out leaves the subscriber list.
 */
public final class EventStream {

    static final long TICK_MS = 1_000;
    /** Streams one user may hold at once: plenty of tabs, not a thread per request of a runaway script. */
    static final int MAX_STREAMS_PER_USER = 16;
    private static final Logger log = LoggerFactory.getLogger(EventStream.class);

    /** What the stream reads; each source is optional (a gateway without channels has no status). */
    public record Sources(Optional<StoreForwardAccess> channels, Optional<TagView> tags, Optional<DeviceAccess> devices,
                   Optional<AlarmAccess> alarms) {
    }

    private record Subscriber(String user, EventOutbox outbox, Optional<String> sessionId,
                              Optional<String> authorization) {
    }

    private final Authenticator authenticator;
    private final Sources sources;
    private final ObjectMapper json;
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final Map<TagPath, TagValue> lastTags = new HashMap<>();
    private AlarmEvent lastAlarm;
    private long ticks;
    private ScheduledExecutorService scheduler;

    EventStream(Authenticator authenticator, Sources sources, ObjectMapper json) {
        this.authenticator = authenticator;
        this.sources = sources;
        this.json = json;
    }

    void register(Api api) {
        api.sse("/api/v1/events", Access.SIGNED_IN, "Live status, tag values, connections and alarms"
                + " (server-sent events)", client -> {
                    client.keepAlive();
                    String user = RequestGuard.principal(client.ctx()).user();
                    EventOutbox outbox = new EventOutbox(client, user, user + " at " + RequestGuard.from(client.ctx()),
                            ended -> subscribers.removeIf(s -> s.outbox() == ended));
                    Subscriber subscriber = new Subscriber(user, outbox,
                            Optional.ofNullable(client.ctx().cookie(RequestGuard.SESSION_COOKIE)),
                            Optional.ofNullable(client.ctx().header("Authorization")));
                    client.onClose(outbox::close);
                    endOldestBeyondTheLimit(user);
                    subscribers.add(subscriber);
                    outbox.start();
                    scheduler.execute(() -> welcome(subscriber));
                });
    }

    /** Ends {@code user}'s oldest streams so that one more fits within {@link #MAX_STREAMS_PER_USER}. */
    private synchronized void endOldestBeyondTheLimit(String user) {
        List<Subscriber> theirs = subscribers.stream().filter(s -> s.user().equals(user)).toList();
        for (int i = 0; i <= theirs.size() - MAX_STREAMS_PER_USER; i++) {
            Subscriber oldest = theirs.get(i);
            subscribers.remove(oldest);
            oldest.outbox().close();
            log.warn("Live event stream: {} holds {} streams, the most one user may; the oldest one was ended",
                    user, MAX_STREAMS_PER_USER);
        }
    }

    void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "console-events");
            thread.setDaemon(true);
            return thread;
        });
        sources.alarms().ifPresent(a -> lastAlarm = a.recent().stream().findFirst().orElse(null));
        scheduler.scheduleWithFixedDelay(Periodic.guarded(this::tickSafely, e -> log.error("Live event stream tick failed: {}; it ticks again", e.toString(), e)), TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        for (Subscriber subscriber : subscribers) {
            subscriber.outbox().close();
        }
        subscribers.clear();
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            log.warn("Live event stream tick failed: {}", e.toString(), e);
        }
    }

    /** The first events of a new subscriber: everything it may see, without waiting for a tick. */
    private void welcome(Subscriber subscriber) {
        Optional<Principal> who = principal(subscriber);
        if (who.isEmpty()) {
            end(subscriber);
            return;
        }
        Principal principal = who.get();
        if (principal.has(Permission.VIEW_CONNECTIONS)) {
            sources.channels().ifPresent(c -> send(subscriber, "status", serialize(c.channels())));
            sources.devices().ifPresent(d -> send(subscriber, "connections", serialize(connections(d))));
        }
        if (principal.has(Permission.VIEW_TAGS)) {
            sources.tags().ifPresent(t -> send(subscriber, "tags",
                    serialize(t.latest().stream().map(ApiJson.Tag::of).toList())));
        }
    }

    private void tick() {
        ticks++;
        String status = sources.channels().map(c -> serialize(c.channels())).orElse(null);
        String tags = sources.tags().map(this::changedTags).orElse(null);
        String connections = ticks % 2 == 0 ? sources.devices().map(d -> serialize(connections(d))).orElse(null) : null;
        List<String> alarms = sources.alarms().map(this::newAlarms).orElse(List.of());
        for (Subscriber subscriber : subscribers) {
            Optional<Principal> who = principal(subscriber);
            if (who.isEmpty()) {
                end(subscriber);
                continue;
            }
            Principal principal = who.get();
            if (principal.has(Permission.VIEW_CONNECTIONS)) {
                if (status != null) {
                    send(subscriber, "status", status);
                }
                if (connections != null) {
                    send(subscriber, "connections", connections);
                }
                alarms.forEach(alarm -> send(subscriber, "alarm", alarm));
            }
            if (principal.has(Permission.VIEW_TAGS) && tags != null && !tags.equals("[]")) {
                send(subscriber, "tags", tags);
            }
        }
    }

    private String changedTags(TagView view) {
        List<ApiJson.Tag> changed = new ArrayList<>();
        for (TagValue value : view.latest()) {
            TagValue previous = lastTags.put(value.path(), value);
            if (!value.equals(previous)) {
                changed.add(ApiJson.Tag.of(value));
            }
        }
        return serialize(changed);
    }

    private List<String> newAlarms(AlarmAccess access) {
        List<AlarmEvent> recent = access.recent();
        List<String> fresh = new ArrayList<>();
        for (AlarmEvent event : recent) {
            if (event == lastAlarm) {
                break;
            }
            fresh.add(0, serialize(AlarmRoutes.AlarmView.of(event)));
        }
        if (!recent.isEmpty()) {
            lastAlarm = recent.get(0);
        }
        return fresh;
    }

    private static List<ApiJson.Device> connections(DeviceAccess devices) {
        return devices.devices().stream().map(ApiJson.Device::of).toList();
    }

    private Optional<Principal> principal(Subscriber subscriber) {
        if (subscriber.authorization().isPresent()) {
            return authenticator.fromBearer(subscriber.authorization().get());
        }
        return subscriber.sessionId().flatMap(authenticator::fromSessionWithoutUse);
    }

    private void end(Subscriber subscriber) {
        subscribers.remove(subscriber);
        subscriber.outbox().finish("signed_out", "{}");
    }

    /** Hands the event to the subscriber's outbox; one that fell behind or went away leaves the stream. */
    private void send(Subscriber subscriber, String event, String data) {
        if (!subscriber.outbox().offer(event, data)) {
            subscribers.remove(subscriber);
        }
    }

    private String serialize(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a live event: " + e.getMessage(), e);
        }
    }
}
