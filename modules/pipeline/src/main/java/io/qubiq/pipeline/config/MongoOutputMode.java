package io.qubiq.pipeline.config;

/** How a MongoDB output writes its documents. */
public enum MongoOutputMode {
    /** A new document per event, its _id the event's item id (a replay is recognised, not duplicated). */
    INSERT,
    /** Replace the document matching the key fields, or insert it. */
    UPSERT
}
