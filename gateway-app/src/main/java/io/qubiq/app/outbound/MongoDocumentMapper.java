package io.qubiq.app.outbound;

import io.qubiq.pipeline.ItemMapper;
import io.qubiq.pipeline.config.MongoOutputMapping;
import io.qubiq.pipeline.config.MongoOutputMode;
import io.qubiq.pipeline.expr.Expression;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;
import io.qubiq.sink.mongodb.MongoDocument;
import io.qubiq.sink.mongodb.MongoWriteMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A pipeline event as a MongoDB document: inserted with {@code _id} = item id, or upserted by key fields. */
public final class MongoDocumentMapper implements ItemMapper<MongoDocument> {

    private final String key;
    private final String collection;
    private final Map<String, Expression> fields;
    private final MongoWriteMode mode;
    private final List<String> keyFields;

    public MongoDocumentMapper(String key, MongoOutputMapping mapping, ExpressionEngine engine, Set<String> variables)
            throws ExpressionException {
        this.key = key;
        this.collection = mapping.collection();
        this.fields = Compiled.all(mapping.document(), engine, variables);
        this.mode = mapping.mode() == MongoOutputMode.UPSERT ? MongoWriteMode.UPSERT : MongoWriteMode.INSERT;
        this.keyFields = List.copyOf(mapping.keyFields());
    }

    @Override
    public MongoDocument map(Scope scope, String itemId) throws ExpressionException {
        Map<String, Object> document = new LinkedHashMap<>();
        for (Map.Entry<String, Expression> field : fields.entrySet()) {
            document.put(field.getKey(), MappedValues.document(field.getValue().evaluate(scope),
                    key + ".document." + field.getKey()));
        }
        try {
            return new MongoDocument(itemId, collection, document, mode, keyFields);
        } catch (IllegalArgumentException e) {
            throw new ExpressionException(key + ": " + e.getMessage(), e);
        }
    }
}
