package io.qubiq.core.tag;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataTypeTest {

    @Test
    void ofNamesTheTypeCarriedByTheValuesClass() {
        assertThat(DataType.of(true)).isEqualTo(DataType.BOOLEAN);
        assertThat(DataType.of(1)).isEqualTo(DataType.INT32);
        assertThat(DataType.of(1L)).isEqualTo(DataType.INT64);
        assertThat(DataType.of(1.5f)).isEqualTo(DataType.FLOAT32);
        assertThat(DataType.of(1.5d)).isEqualTo(DataType.FLOAT64);
        assertThat(DataType.of("on")).isEqualTo(DataType.STRING);
        assertThat(DataType.of(Instant.EPOCH)).isEqualTo(DataType.DATETIME);
    }

    @Test
    void ofRejectsAClassNoTypeCarriesAndListsTheCarriers() {
        assertThatThrownBy(() -> DataType.of(new BigDecimal("1.5")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no tag data type carries a java.math.BigDecimal "
                        + "(use Boolean, Integer, Long, Float, Double, String or Instant)");
        assertThatThrownBy(() -> DataType.of((short) 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ofRejectsNullWithAClearMessage() {
        assertThatThrownBy(() -> DataType.of(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null");
    }

    @Test
    void everyTypeNamesItsJavaCarrier() {
        for (DataType type : DataType.values()) {
            assertThat(type.javaType()).as(type.name()).isNotNull();
        }
        assertThat(DataType.INT64.javaType()).isEqualTo(Long.class);
        assertThat(DataType.DATETIME.javaType()).isEqualTo(Instant.class);
    }

    @Test
    void onlyIntegersAndFloatsAreNumeric() {
        assertThat(DataType.INT32.isNumeric()).isTrue();
        assertThat(DataType.INT64.isNumeric()).isTrue();
        assertThat(DataType.FLOAT32.isNumeric()).isTrue();
        assertThat(DataType.FLOAT64.isNumeric()).isTrue();
        assertThat(DataType.BOOLEAN.isNumeric()).isFalse();
        assertThat(DataType.STRING.isNumeric()).isFalse();
        assertThat(DataType.DATETIME.isNumeric()).isFalse();
    }
}
