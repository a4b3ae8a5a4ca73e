package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.connector.opcua.VariantConversion.Converted;
import io.qubiq.core.tag.DataType;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.junit.jupiter.api.Test;

class VariantConversionTest {

    @Test
    void smallAndUnsignedIntegersWidenToTheNextGatewayType() {
        assertThat(VariantConversion.fromVariant(new Variant(Unsigned.ushort(7))))
                .contains(new Converted(7, DataType.INT32));
        assertThat(VariantConversion.fromVariant(new Variant((short) -3))).contains(new Converted(-3, DataType.INT32));
        assertThat(VariantConversion.fromVariant(new Variant(Unsigned.uint(4_000_000_000L))))
                .contains(new Converted(4_000_000_000L, DataType.INT64));
        assertThat(VariantConversion.fromVariant(new Variant(Unsigned.ulong(-1L)))).isEmpty();
    }

    @Test
    void dateTimeBecomesAnInstantAndArraysHaveNoGatewayType() {
        Instant t = Instant.parse("2026-01-02T03:04:05Z");
        assertThat(VariantConversion.fromVariant(new Variant(new DateTime(t)))).contains(new Converted(t, DataType.DATETIME));
        assertThat(VariantConversion.fromVariant(new Variant(new int[]{1, 2}))).isEmpty();
        assertThat(VariantConversion.fromVariant(Variant.NULL_VALUE)).isEmpty();
    }

    @Test
    void writesTakeTheVariablesOwnType() {
        assertThat(VariantConversion.toVariant(60, Optional.of(Double.class)).getValue()).isEqualTo(60.0);
        assertThat(VariantConversion.toVariant(9L, Optional.of(UShort.class)).getValue()).isEqualTo(Unsigned.ushort(9));
        assertThat(VariantConversion.toVariant(9.0, Optional.of(UInteger.class)).getValue()).isEqualTo(Unsigned.uint(9));
        assertThatThrownBy(() -> VariantConversion.toVariant(9.5, Optional.of(Integer.class)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole number");
        assertThatThrownBy(() -> VariantConversion.toVariant(70000, Optional.of(UShort.class)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UInt16");
    }
}
