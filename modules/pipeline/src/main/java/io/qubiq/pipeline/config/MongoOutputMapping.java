package io.qubiq.pipeline.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import java.util.List;
import java.util.Map;

/** A MongoDB document per event. */
@Doc("Write one document per event to a MongoDB collection.")
public record MongoOutputMapping(
        @Doc("The collection.")
        String collection,

        @Doc("Document field -> expression. Maps and lists become embedded documents and arrays.")
        Map<String, String> document,

        @Doc("insert: a new document per event with _id = the event's item id. upsert: replace the document"
                + " whose key_fields match, or insert it.")
        @Default("insert")
        MongoOutputMode mode,

        @Doc("With mode upsert: the document fields that identify the document to replace.")
        @Default("[]")
        List<String> keyFields) {
}
