package io.qubiq.app.devices;

import io.qubiq.console.RequestFailure;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.TagPath;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Tag writes from the console and scripts. Owns the map from each declared tag to the connection
 * that owns it (built once from the entries; a tag no connection declares cannot be written, NOT_FOUND).
 * A write goes straight to the owning connector, never buffered or retried, so it fails visibly;
 * every write is audited ({@code tag_write} on {@code tag/<path>}) with the device's verdict or the
 * failure, whatever it is.
 *
 * <p>Threading: immutable after construction; safe from any thread. The audit entry is recorded on
 * the thread that completes the device's future.
 */
final class TagWrites {

    private final Map<String, DeviceConnections.Entry> entries;
    private final Map<TagPath, String> owners = new LinkedHashMap<>();
    private final EventPublisher events;
    private final Clock clock;

    TagWrites(Map<String, DeviceConnections.Entry> entries, EventPublisher events, Clock clock) {
        this.entries = entries;
        this.events = events;
        this.clock = clock;
        entries.forEach((id, entry) -> entry.tags().forEach(tag -> owners.put(tag, id)));
    }

    CompletableFuture<TagWriteResult> write(TagPath tag, Object value, String user, String from) {
        String owner = owners.get(tag);
        if (owner == null) {
            throw new RequestFailure.NotFound("no device connection reads tag " + tag + "; only configured tags can be written");
        }
        CompletableFuture<TagWriteResult> result = entries.get(owner).connector().write(tag, value);
        return result.whenComplete((verdict, failure) -> audit(tag, value, user, from, owner,
                failure == null ? verdict.status().label() : describe(failure)));
    }

    private void audit(TagPath tag, Object value, String user, String from, String owner, String outcome) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, from);
        details.put("connection", owner);
        details.put("value", String.valueOf(value));
        events.audit(new AuditEvent(clock.instant(), user, AuditAction.TAG_WRITE, "tag/" + tag, outcome, details));
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure.getCause() != null && failure instanceof CompletionException
                ? failure.getCause() : failure;
        return "failed: " + cause.getMessage();
    }
}
