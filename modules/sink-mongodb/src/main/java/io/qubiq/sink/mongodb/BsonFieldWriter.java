package io.qubiq.sink.mongodb;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.bson.BsonWriter;
import org.bson.types.Decimal128;

/**
 * Writes {@link MongoDocument} field values straight into the driver's {@link BsonWriter}, without
 * an intermediate {@code org.bson.Document}: String → string, Integer → int32, Long → int64,
 * Double → double, Boolean → boolean, BigDecimal → decimal128, Instant → date (milliseconds since
 * the epoch; anything finer is cut off), Map → embedded document, List → array, null → null.
 * Stateless.
 */
final class BsonFieldWriter {

    private BsonFieldWriter() {
    }

    static void writeFields(BsonWriter writer, Map<String, Object> fields) {
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            writer.writeName(field.getKey());
            writeValue(writer, field.getValue());
        }
    }

    @SuppressWarnings("unchecked")
    static void writeValue(BsonWriter writer, Object value) {
        if (value == null) {
            writer.writeNull();
        } else if (value instanceof String s) {
            writer.writeString(s);
        } else if (value instanceof Double d) {
            writer.writeDouble(d);
        } else if (value instanceof Long l) {
            writer.writeInt64(l);
        } else if (value instanceof Integer i) {
            writer.writeInt32(i);
        } else if (value instanceof Boolean b) {
            writer.writeBoolean(b);
        } else if (value instanceof Instant t) {
            writer.writeDateTime(t.toEpochMilli());
        } else if (value instanceof BigDecimal d) {
            writer.writeDecimal128(new Decimal128(d));
        } else if (value instanceof Map<?, ?> map) {
            writer.writeStartDocument();
            writeFields(writer, (Map<String, Object>) map);
            writer.writeEndDocument();
        } else if (value instanceof List<?> list) {
            writer.writeStartArray();
            for (Object element : list) {
                writeValue(writer, element);
            }
            writer.writeEndArray();
        } else {
            // MongoDocument's constructor admits no other type
            throw new IllegalStateException("unsupported value type " + value.getClass().getName());
        }
    }
}
