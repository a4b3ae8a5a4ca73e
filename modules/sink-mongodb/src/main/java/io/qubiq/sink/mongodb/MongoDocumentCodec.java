package io.qubiq.sink.mongodb;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Stores {@link MongoDocument}s in a store-and-forward buffer: a compact binary record that
 * round-trips every value exactly (the {@code Integer}/{@code Long} distinction, a
 * {@code BigDecimal}'s scale, an {@code Instant}'s nanoseconds, {@code -0.0} and NaN payloads, key
 * order), none of which BSON itself would all keep.
 *
 * <p>Byte layout, format version 1:
 * <pre>
 * byte     version             1
 * string   itemId
 * string   collection
 * byte     mode                0 INSERT, 1 UPSERT
 * varint   n, then n strings   keyFields
 * document fields
 *
 * document = varint count, then count times (string name, value)
 * value    = tag byte, then: 0 null | 1 string | 2 int32 as zig-zag varint | 3 int64 as zig-zag varint
 *            | 4 double as 8 bytes big-endian IEEE bits | 5 true | 6 false
 *            | 7 decimal: zig-zag varint scale, varint n, n bytes two's-complement unscaled value
 *            | 8 instant: zig-zag varint epoch second, varint nanoseconds | 9 document
 *            | 10 array: varint count, then count values
 * string   = varint byte length, UTF-8 bytes (an unpaired surrogate, which BSON cannot hold either,
 *            becomes ?);  varint = unsigned LEB128
 * </pre>
 * Decoding checks every length against the bytes left, insists on using all of them and rebuilds the
 * item through {@link MongoDocument}'s constructor, so bytes that are damaged, from another format
 * version or no longer valid fail as a {@link PermanentException} for that one item.
 *
 * <p>Stateless and thread-safe.
 */
public final class MongoDocumentCodec implements ItemCodec<MongoDocument> {

    /** The format version this codec writes and the only one it reads. */
    public static final int VERSION = 1;

    @Override
    public byte[] encode(MongoDocument item) {
        DocumentBytesWriter out = new DocumentBytesWriter(64 + 24 * item.fields().size());
        out.writeByte(VERSION);
        out.writeString(item.itemId());
        out.writeString(item.collection());
        out.writeByte(item.mode() == MongoWriteMode.INSERT ? 0 : 1);
        out.writeVarLong(item.keyFields().size());
        for (String key : item.keyFields()) {
            out.writeString(key);
        }
        out.writeDocument(item.fields());
        return out.toByteArray();
    }

    @Override
    public MongoDocument decode(byte[] bytes) throws PermanentException {
        if (bytes.length == 0) {
            throw new PermanentException("cannot decode a MongoDB document from 0 bytes", null);
        }
        if ((bytes[0] & 0xFF) != VERSION) {
            throw new PermanentException("cannot decode a MongoDB document: format version " + (bytes[0] & 0xFF)
                    + ", this gateway reads version " + VERSION + " (" + bytes.length + " bytes)", null);
        }
        try {
            DocumentBytesReader in = new DocumentBytesReader(bytes, 1);
            String itemId = in.readString();
            String collection = in.readString();
            int mode = in.readByte();
            if (mode > 1) {
                throw new IllegalArgumentException("unknown write mode " + mode);
            }
            int keyCount = in.readLength("key field count");
            List<String> keyFields = new ArrayList<>(keyCount);
            for (int i = 0; i < keyCount; i++) {
                keyFields.add(in.readString());
            }
            Map<String, Object> fields = in.readDocument(0);
            if (!in.atEnd()) {
                throw new IllegalArgumentException((bytes.length - in.position()) + " bytes left over at offset "
                        + in.position());
            }
            return new MongoDocument(itemId, collection, fields,
                    mode == 0 ? MongoWriteMode.INSERT : MongoWriteMode.UPSERT, keyFields);
        } catch (RuntimeException e) {
            throw new PermanentException("cannot decode a MongoDB document (" + bytes.length + " bytes, format version "
                    + VERSION + "): " + e.getMessage(), e);
        }
    }

    /** Mongo-shell-like text, such as {@code readings insert {_id: "a-1", tag: "L1/Speed", value: 1.5}}. */
    @Override
    public String preview(MongoDocument item) {
        return DocumentPreview.of(item);
    }
}
