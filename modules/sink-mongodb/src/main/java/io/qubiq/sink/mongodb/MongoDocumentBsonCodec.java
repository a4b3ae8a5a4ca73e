package io.qubiq.sink.mongodb;

import org.bson.BsonReader;
import org.bson.BsonWriter;
import org.bson.codecs.Codec;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.EncoderContext;

/**
 * The driver's view of a {@link MongoDocument}: the document as stored. For an INSERT without an
 * {@code _id} field, {@code _id} (first) is the item id; otherwise the fields as they are (an
 * UPSERT's document gets its {@code _id} from the document it replaces, or from the server).
 * Write-only: the sink never reads documents back. Stateless and thread-safe.
 */
final class MongoDocumentBsonCodec implements Codec<MongoDocument> {

    @Override
    public void encode(BsonWriter writer, MongoDocument document, EncoderContext context) {
        writer.writeStartDocument();
        if (document.mode() == MongoWriteMode.INSERT && !document.fields().containsKey(MongoDocument.ID)) {
            writer.writeName(MongoDocument.ID);
            writer.writeString(document.itemId());
        }
        BsonFieldWriter.writeFields(writer, document.fields());
        writer.writeEndDocument();
    }

    @Override
    public MongoDocument decode(BsonReader reader, DecoderContext context) {
        throw new UnsupportedOperationException("the MongoDB sink writes documents, it never reads them");
    }

    @Override
    public Class<MongoDocument> getEncoderClass() {
        return MongoDocument.class;
    }
}
