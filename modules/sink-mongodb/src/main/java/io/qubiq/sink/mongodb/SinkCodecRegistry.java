package io.qubiq.sink.mongodb;

import com.mongodb.MongoClientSettings;
import java.lang.reflect.Type;
import java.util.List;
import org.bson.codecs.Codec;
import org.bson.codecs.configuration.CodecRegistry;

/**
 * The codecs of the sink's collections: {@link MongoDocumentBsonCodec} for {@link MongoDocument},
 * the driver's defaults for everything else (filters, commands). The driver asks for a document's
 * codec once per document; answering {@code MongoDocument.class} with an identity check spares
 * the default registry's cache lookup (hashing a key per document). Immutable and thread-safe.
 */
final class SinkCodecRegistry implements CodecRegistry {

    private final Codec<MongoDocument> documents = new MongoDocumentBsonCodec();
    private final CodecRegistry defaults = MongoClientSettings.getDefaultCodecRegistry();

    @Override
    public <T> Codec<T> get(Class<T> type) {
        Codec<T> own = own(type);
        return own != null ? own : defaults.get(type);
    }

    @Override
    public <T> Codec<T> get(Class<T> type, List<Type> typeArguments) {
        Codec<T> own = own(type);
        return own != null ? own : defaults.get(type, typeArguments);
    }

    @Override
    public <T> Codec<T> get(Class<T> type, CodecRegistry registry) {
        Codec<T> own = own(type);
        return own != null ? own : defaults.get(type, registry);
    }

    @Override
    public <T> Codec<T> get(Class<T> type, List<Type> typeArguments, CodecRegistry registry) {
        Codec<T> own = own(type);
        return own != null ? own : defaults.get(type, typeArguments, registry);
    }

    @SuppressWarnings("unchecked")
    private <T> Codec<T> own(Class<T> type) {
        return type == MongoDocument.class ? (Codec<T>) documents : null;
    }
}
