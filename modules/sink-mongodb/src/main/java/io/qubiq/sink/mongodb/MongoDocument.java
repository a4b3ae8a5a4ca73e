package io.qubiq.sink.mongodb;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One document for the MongoDB sink: where it goes, what it holds and how it is written.
 *
 * <p>Field values are {@code null}, {@link String}, {@link Integer}, {@link Long}, {@link Double},
 * {@link Boolean}, {@link java.math.BigDecimal} (stored as Decimal128: at most 34 significant
 * digits), {@link java.time.Instant} (stored as a BSON date: milliseconds, the rest is cut off), a
 * nested {@code Map<String, Object>} of these, or a {@code List<Object>} of these. The constructor
 * checks every value and keeps an unmodifiable deep copy in the caller's key order, so a document
 * cannot change after it was handed to a channel.
 *
 * <p>{@link MongoWriteMode#INSERT}: the stored document's {@code _id} is {@code itemId}, unless
 * {@code fields} has an {@code _id} of its own; {@code keyFields} must be empty.
 * {@link MongoWriteMode#UPSERT}: {@code replaceOne} filtered by the values of {@code keyFields}
 * (top-level field names, at least one, each present in {@code fields}) with {@code upsert: true}.
 *
 * @param itemId     the item's identity: unique per item, stable across replays (not blank)
 * @param collection the collection in the sink's database: not empty, without {@code $} or NUL,
 *                   not in the {@code system.} namespace
 * @param fields     the document's fields; top-level names must not start with {@code $}, no name
 *                   may contain NUL
 * @param mode       insert or upsert
 * @param keyFields  for UPSERT, the fields whose values identify the document
 * @throws IllegalArgumentException naming the first rule broken
 */
public record MongoDocument(String itemId, String collection, Map<String, Object> fields, MongoWriteMode mode,
                            List<String> keyFields) {

    /** The field every MongoDB document is identified by. */
    public static final String ID = "_id";

    public MongoDocument {
        Objects.requireNonNull(itemId, "itemId");
        Objects.requireNonNull(collection, "collection");
        Objects.requireNonNull(fields, "fields");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(keyFields, "keyFields");
        if (itemId.isBlank()) {
            throw new IllegalArgumentException("itemId must not be blank");
        }
        String collectionProblem = collectionProblem(collection);
        if (collectionProblem != null) {
            throw new IllegalArgumentException("collection \"" + collection + "\" " + collectionProblem);
        }
        fields = FieldValues.copyDocument(fields, "item " + itemId);
        for (String name : fields.keySet()) {
            if (name.startsWith("$")) {
                throw new IllegalArgumentException("item " + itemId + ": top-level field name \"" + name
                        + "\" must not start with $");
            }
        }
        keyFields = List.copyOf(keyFields);
        checkKeyFields(itemId, mode, keyFields, fields);
    }

    /** An INSERT whose {@code _id} is {@code itemId} (unless {@code fields} has an {@code _id}). */
    public static MongoDocument insert(String itemId, String collection, Map<String, Object> fields) {
        return new MongoDocument(itemId, collection, fields, MongoWriteMode.INSERT, List.of());
    }

    /** An UPSERT replacing the document whose {@code keyFields} have this document's values. */
    public static MongoDocument upsert(String itemId, String collection, Map<String, Object> fields,
                                       List<String> keyFields) {
        return new MongoDocument(itemId, collection, fields, MongoWriteMode.UPSERT, keyFields);
    }

    /**
     * Whether the stored document's {@code _id} is the item id: always for an INSERT without an
     * {@code _id} field, or with an {@code _id} field equal to it. A duplicate {@code _id} then means
     * this very item is already stored.
     */
    public boolean keyedByItemId() {
        if (mode != MongoWriteMode.INSERT) {
            return false;
        }
        return !fields.containsKey(ID) || itemId.equals(fields.get(ID));
    }

    /** Why {@code name} cannot be a collection name, or null when it can. */
    static String collectionProblem(String name) {
        if (name.isEmpty()) {
            return "must not be empty";
        }
        if (name.indexOf('$') >= 0 || name.indexOf('\0') >= 0) {
            return "must not contain $ or NUL";
        }
        if (name.startsWith("system.")) {
            return "is in the reserved system. namespace";
        }
        return null;
    }

    private static void checkKeyFields(String itemId, MongoWriteMode mode, List<String> keyFields,
                                       Map<String, Object> fields) {
        if (mode == MongoWriteMode.INSERT) {
            if (!keyFields.isEmpty()) {
                throw new IllegalArgumentException("item " + itemId + ": keyFields " + keyFields
                        + " apply only to UPSERT; an INSERT is keyed by _id");
            }
            return;
        }
        if (keyFields.isEmpty()) {
            throw new IllegalArgumentException("item " + itemId + ": an UPSERT needs at least one key field");
        }
        for (int i = 0; i < keyFields.size(); i++) {
            String key = keyFields.get(i);
            if (!fields.containsKey(key)) {
                throw new IllegalArgumentException("item " + itemId + ": key field \"" + key
                        + "\" is not among its fields " + fields.keySet());
            }
            if (keyFields.indexOf(key) != i) {
                throw new IllegalArgumentException("item " + itemId + ": key field \"" + key + "\" is listed twice");
            }
        }
    }
}
