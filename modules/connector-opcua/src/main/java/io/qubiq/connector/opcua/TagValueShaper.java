package io.qubiq.connector.opcua;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;

/**
 * Turns one OPC UA data value into a tag value: the variant converted ({@link VariantConversion})
 * and scaled, the status code as quality ({@link QualityMapping}), the source and server timestamps
 * (the gateway's {@code now} where the server sent none). A value without a gateway type becomes a
 * value-less BadTypeMismatch; a missing value keeps the server's code, or plain Bad if that said
 * Good. Stateless.
 */
final class TagValueShaper {

    private TagValueShaper() {
    }

    /**
     * {@code path} is the tag's path ({@code tag.tagPath()}, resolved once by the caller);
     * {@code knownType} is the tag's type from earlier values, used when this one carries none.
     */
    static TagValue shape(OpcUaTagConfig tag, TagPath path, DataValue value, DataType knownType, Instant now) {
        Instant sourceTime = instantOf(value.getSourceTime(), now);
        Instant serverTime = instantOf(value.getServerTime(), now);
        Quality quality = QualityMapping.of(value.getStatusCode());
        Optional<VariantConversion.Converted> converted = VariantConversion.fromVariant(value.getValue());
        if (converted.isEmpty()) {
            boolean absent = value.getValue() == null || value.getValue().isNull();
            Quality missing = absent ? (quality.isGood() ? Quality.BAD : quality) : Quality.BAD_TYPE_MISMATCH;
            return new TagValue(path, null, knownType, missing, sourceTime, serverTime);
        }
        Object v = converted.get().value();
        DataType type = converted.get().type();
        if (tag.scale().isPresent() && v instanceof Number number) {
            v = tag.scale().get().toEngineering(number.doubleValue());
            type = DataType.FLOAT64;
        }
        return new TagValue(path, v, type, quality, sourceTime, serverTime);
    }

    /**
     * The Java class Milo used for the value, which writes must match: {@code known} when the value
     * has the same class (no new object per value) or none, else the value's class.
     */
    static Optional<Class<?>> rawType(DataValue value, Optional<Class<?>> known) {
        Object raw = value.getValue() == null ? null : value.getValue().getValue();
        if (raw == null || (known.isPresent() && known.get() == raw.getClass())) {
            return known;
        }
        return Optional.of(raw.getClass());
    }

    private static Instant instantOf(DateTime time, Instant orElse) {
        return time == null || time.isNull() ? orElse : time.getJavaInstant();
    }
}
