package io.qubiq.audit;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.sink.ItemCodec;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes of one {@link JournalEntry}, in the store-and-forward buffer and inside the local
 * audit store's records. Version 1, big-endian:
 *
 * <pre>
 * u8   version (1)
 * i64  entry id
 * i64  event time, epoch seconds
 * i32  event time, nanosecond of the second
 * str  user
 * str  action (the {@link AuditAction} name)
 * str  target
 * str  outcome
 * i32  number of details, then that many pairs: str key, str value (in the event's order)
 * </pre>
 * where {@code str} is an i32 byte count followed by that many bytes of UTF-8. Decoding checks every
 * length against the bytes left and refuses trailing bytes; bytes that do not decode are a
 * {@link PermanentException} naming what was wrong. A later version adds a version number and keeps
 * reading this one.
 *
 * <p>Threading: stateless, safe for concurrent use.
 */
public final class JournalEntryCodec implements ItemCodec<JournalEntry> {

    static final byte VERSION = 1;

    @Override
    public byte[] encode(JournalEntry entry) {
        AuditEvent event = entry.event();
        List<byte[]> strings = new ArrayList<>(4 + 2 * event.details().size());
        strings.add(utf8(event.user()));
        strings.add(utf8(event.action().name()));
        strings.add(utf8(event.target()));
        strings.add(utf8(event.outcome()));
        for (Map.Entry<String, String> detail : event.details().entrySet()) {
            strings.add(utf8(detail.getKey()));
            strings.add(utf8(detail.getValue()));
        }
        int size = 1 + 8 + 8 + 4 + 4;
        for (byte[] string : strings) {
            size += 4 + string.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(VERSION).putLong(entry.id()).putLong(event.at().getEpochSecond()).putInt(event.at().getNano());
        for (int i = 0; i < 4; i++) {
            put(out, strings.get(i));
        }
        out.putInt(event.details().size());
        for (int i = 4; i < strings.size(); i++) {
            put(out, strings.get(i));
        }
        return out.array();
    }

    @Override
    public JournalEntry decode(byte[] bytes) throws PermanentException {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            byte version = in.get();
            if (version != VERSION) {
                throw new PermanentException("audit entry format version " + version + " is not known (this"
                        + " gateway reads version " + VERSION + ")", null);
            }
            long id = in.getLong();
            Instant at = Instant.ofEpochSecond(in.getLong(), in.getInt());
            String user = string(in);
            AuditAction action = action(string(in));
            String target = string(in);
            String outcome = string(in);
            int count = in.getInt();
            if (count < 0 || count > in.remaining() / 8) {
                throw new PermanentException("audit entry claims " + count + " details in " + in.remaining()
                        + " bytes", null);
            }
            Map<String, String> details = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                details.put(string(in), string(in));
            }
            if (in.hasRemaining()) {
                throw new PermanentException("audit entry has " + in.remaining() + " bytes past its end", null);
            }
            return new JournalEntry(id, new AuditEvent(at, user, action, target, outcome, details));
        } catch (BufferUnderflowException | DateTimeException e) {
            throw new PermanentException("audit entry of " + bytes.length + " bytes is cut short or malformed", e);
        }
    }

    @Override
    public String preview(JournalEntry entry) {
        AuditEvent event = entry.event();
        return event.at() + " " + event.user() + " " + event.action() + " " + event.target() + ": "
                + event.outcome();
    }

    private static AuditAction action(String name) throws PermanentException {
        try {
            return AuditAction.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new PermanentException("audit entry names an action this gateway does not know: " + name, e);
        }
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static void put(ByteBuffer out, byte[] string) {
        out.putInt(string.length).put(string);
    }

    private static String string(ByteBuffer in) throws PermanentException {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new PermanentException("audit entry has a string of " + length + " bytes with " + in.remaining()
                    + " left", null);
        }
        String value = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return value;
    }
}
