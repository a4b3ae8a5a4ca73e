package io.qubiq.sink.mongodb;

import org.bson.BsonDocument;
import org.bson.BsonDocumentWriter;
import org.bson.codecs.configuration.CodecRegistry;
import org.bson.conversions.Bson;

/**
 * The filter of an UPSERT: equality on each key field, with the value encoded exactly as the
 * document's own field is ({@link BsonFieldWriter}), so the replacement always matches its own
 * filter. Immutable.
 */
final class KeyFilter implements Bson {

    private final MongoDocument document;

    KeyFilter(MongoDocument document) {
        this.document = document;
    }

    @Override
    public <T> BsonDocument toBsonDocument(Class<T> documentClass, CodecRegistry registry) {
        BsonDocument filter = new BsonDocument();
        BsonDocumentWriter writer = new BsonDocumentWriter(filter);
        writer.writeStartDocument();
        for (String key : document.keyFields()) {
            writer.writeName(key);
            BsonFieldWriter.writeValue(writer, document.fields().get(key));
        }
        writer.writeEndDocument();
        return filter;
    }

    @Override
    public String toString() {
        return "KeyFilter" + document.keyFields();
    }
}
