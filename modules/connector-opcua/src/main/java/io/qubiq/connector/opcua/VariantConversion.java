package io.qubiq.connector.opcua;

import io.qubiq.core.tag.DataType;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.ULong;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;

/**
 * Converts OPC UA values to the gateway's data types and back. Reading: Boolean, Int32, Int64,
 * Float, Double, String and DateTime map one to one; SByte, Byte, Int16 and UInt16 widen to int32;
 * UInt32 widens to int64; UInt64 becomes int64 when it fits; LocalizedText and Guid become strings.
 * Anything else (arrays, structures, byte strings) has no gateway type. Writing converts a Java
 * value to the variable's own OPC UA type, which the server requires. Stateless.
 */
public final class VariantConversion {

    /** A value in the gateway's terms. */
    public record Converted(Object value, DataType type) {
    }

    private VariantConversion() {
    }

    /** The gateway value of {@code variant}; empty for a null variant or a type the gateway does not carry. */
    public static Optional<Converted> fromVariant(Variant variant) {
        Object raw = variant == null ? null : variant.getValue();
        if (raw == null) {
            return Optional.empty();
        }
        if (raw instanceof Boolean b) {
            return Optional.of(new Converted(b, DataType.BOOLEAN));
        }
        if (raw instanceof Integer || raw instanceof Short || raw instanceof Byte || raw instanceof UByte
                || raw instanceof UShort) {
            return Optional.of(new Converted(((Number) raw).intValue(), DataType.INT32));
        }
        if (raw instanceof Long || raw instanceof UInteger) {
            return Optional.of(new Converted(((Number) raw).longValue(), DataType.INT64));
        }
        if (raw instanceof ULong ulong) {
            BigInteger big = ulong.toBigInteger();
            return big.bitLength() < 64 ? Optional.of(new Converted(big.longValue(), DataType.INT64)) : Optional.empty();
        }
        if (raw instanceof Float f) {
            return Optional.of(new Converted(f, DataType.FLOAT32));
        }
        if (raw instanceof Double d) {
            return Optional.of(new Converted(d, DataType.FLOAT64));
        }
        if (raw instanceof String s) {
            return Optional.of(new Converted(s, DataType.STRING));
        }
        if (raw instanceof DateTime dateTime) {
            return Optional.of(new Converted(dateTime.getJavaInstant(), DataType.DATETIME));
        }
        if (raw instanceof LocalizedText text) {
            return Optional.of(new Converted(text.getText() == null ? "" : text.getText(), DataType.STRING));
        }
        if (raw instanceof UUID uuid) {
            return Optional.of(new Converted(uuid.toString(), DataType.STRING));
        }
        return Optional.empty();
    }

    /**
     * {@code value} as a variant of {@code rawType}, the Java class Milo uses for the variable's
     * type (from a value read earlier), or of the value's own OPC UA type when it is unknown.
     *
     * @throws IllegalArgumentException when the value cannot be represented in that type
     */
    public static Variant toVariant(Object value, Optional<Class<?>> rawType) {
        if (value == null) {
            throw new IllegalArgumentException("a null value cannot be written");
        }
        if (rawType.isEmpty()) {
            return new Variant(value instanceof Instant instant ? new DateTime(instant) : value);
        }
        Class<?> type = rawType.get();
        if (type == Boolean.class) {
            if (value instanceof Boolean) {
                return new Variant(value);
            }
            throw mismatch(value, "Boolean");
        }
        if (type == String.class) {
            return new Variant(value.toString());
        }
        if (type == DateTime.class) {
            if (value instanceof Instant instant) {
                return new Variant(new DateTime(instant));
            }
            throw mismatch(value, "DateTime");
        }
        if (!(value instanceof Number number)) {
            throw mismatch(value, type.getSimpleName());
        }
        if (type == Double.class) {
            return new Variant(number.doubleValue());
        }
        if (type == Float.class) {
            return new Variant(number.floatValue());
        }
        long whole = integral(number, type.getSimpleName());
        if (type == Integer.class) {
            return new Variant(Math.toIntExact(whole));
        }
        if (type == Long.class) {
            return new Variant(whole);
        }
        if (type == Short.class) {
            return new Variant((short) inRange(whole, Short.MIN_VALUE, Short.MAX_VALUE, "Int16"));
        }
        if (type == Byte.class) {
            return new Variant((byte) inRange(whole, Byte.MIN_VALUE, Byte.MAX_VALUE, "SByte"));
        }
        if (type == UByte.class) {
            return new Variant(Unsigned.ubyte(inRange(whole, 0, 255, "Byte")));
        }
        if (type == UShort.class) {
            return new Variant(Unsigned.ushort((int) inRange(whole, 0, 65535, "UInt16")));
        }
        if (type == UInteger.class) {
            return new Variant(Unsigned.uint(inRange(whole, 0, 0xFFFF_FFFFL, "UInt32")));
        }
        if (type == ULong.class) {
            return new Variant(Unsigned.ulong(inRange(whole, 0, Long.MAX_VALUE, "UInt64")));
        }
        throw new IllegalArgumentException("the variable's type " + type.getSimpleName() + " cannot be written by the"
                + " gateway");
    }

    private static long integral(Number number, String type) {
        double d = number.doubleValue();
        if (number instanceof Double || number instanceof Float) {
            if (d != Math.rint(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException(number + " is not a whole number, which the variable's type "
                        + type + " requires");
            }
            return (long) d;
        }
        return number.longValue();
    }

    private static long inRange(long value, long min, long max, String type) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(value + " is outside the range of " + type + " (" + min + " to " + max
                    + ")");
        }
        return value;
    }

    private static IllegalArgumentException mismatch(Object value, String type) {
        return new IllegalArgumentException("a " + value.getClass().getSimpleName() + " cannot be written to a"
                + " variable of type " + type);
    }
}
