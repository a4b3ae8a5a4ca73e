package io.qubiq.sink.mongodb;

/** How a {@link MongoDocument} is written. */
public enum MongoWriteMode {
    /**
     * Insert a new document whose {@code _id} is the item id (unless the fields carry their own
     * {@code _id}). A replay of a document that is already there is recognised by its duplicate
     * {@code _id} and counted as delivered.
     */
    INSERT,
    /**
     * Replace the document matched by the key fields' values, or insert it when none matches
     * ({@code replaceOne} with {@code upsert: true}). A replay replaces the document with itself.
     */
    UPSERT
}
