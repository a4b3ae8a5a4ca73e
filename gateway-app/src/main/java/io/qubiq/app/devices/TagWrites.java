package io.qubiq.app.devices;

import io.qubiq.console.RequestFailure;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Tag writes from the console and scripts. A tag is written through the connection that declares it
 * now (connections change live); a tag no connection declares cannot be written (NOT_FOUND).
 * A write goes straight to the owning connector, never buffered or retried, so it fails visibly;
 * every write is audited ({@code tag_write} on {@code tag/<path>}) with the device's verdict or the
 * failure, whatever it is, the value written ({@code value}) and the tag's last known value before the
 * write ({@code old_value}, from the tag bus's latest table; {@value #UNKNOWN} when the tag has none yet).
 *
 * <p>Threading: holds no state of its own; safe from any thread. The audit entry is recorded on
 * the thread that completes the device's future.
 */
final class TagWrites {

    static final String UNKNOWN = "unknown";

    private final Map<String, DeviceConnections.Entry> entries;
    private final Function<TagPath, Optional<TagValue>> latest;
    private final EventPublisher events;
    private final Clock clock;

    TagWrites(Map<String, DeviceConnections.Entry> entries, Function<TagPath, Optional<TagValue>> latest,
              EventPublisher events, Clock clock) {
        this.entries = entries;
        this.latest = latest;
        this.events = events;
        this.clock = clock;
    }

    CompletableFuture<TagWriteResult> write(TagPath tag, Object value, String user, String from) {
        String owner = ownerOf(tag);
        if (owner == null) {
            throw new RequestFailure.NotFound("no device connection reads tag " + tag + "; only configured tags can be written");
        }
        Optional<TagValue> before = latest.apply(tag);
        CompletableFuture<TagWriteResult> result = entries.get(owner).connector().write(tag, value);
        return result.whenComplete((verdict, failure) -> audit(tag, before, value, user, from, owner,
                failure == null ? verdict.status().label() : describe(failure)));
    }

    /** The connection that declares {@code tag} now (connections change live), or null. */
    private String ownerOf(TagPath tag) {
        for (Map.Entry<String, DeviceConnections.Entry> entry : entries.entrySet()) {
            if (entry.getValue().tags().contains(tag)) {
                return entry.getKey();
            }
        }
        return null;
    }

    private void audit(TagPath tag, Optional<TagValue> before, Object value, String user, String from, String owner,
                       String outcome) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, from);
        details.put("connection", owner);
        details.put("old_value", before.map(v -> String.valueOf(v.value())).orElse(UNKNOWN));
        details.put("value", String.valueOf(value));
        events.audit(new AuditEvent(clock.instant(), user, AuditAction.TAG_WRITE, "tag/" + tag, outcome, details));
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure.getCause() != null && failure instanceof CompletionException
                ? failure.getCause() : failure;
        return "failed: " + cause.getMessage();
    }
}
