package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParameterMapTest {

    private final ParameterMap map = new ParameterMap(new String[] {"a", "b", "c"}, new Object[] {1, null, "x"});

    @Test
    void itIsAnOrderedMapEqualToAnyMapWithTheSameEntries() {
        Map<String, Object> same = new HashMap<>();
        same.put("c", "x");
        same.put("b", null);
        same.put("a", 1);

        assertThat(map).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(same).isEqualTo(map);
        assertThat(map.keySet()).containsExactly("a", "b", "c");
        assertThat(map).containsKey("b").doesNotContainKey("d").hasSize(3);
        assertThat(map.get("b")).isNull();
        assertThat(map.get("c")).isEqualTo("x");
        assertThat(map.get(7)).isNull();
        assertThat(map).hasToString("{a=1, b=null, c=x}");
    }

    @Test
    void aLookupTriesTheHintFirstAndFallsBackToAScan() {
        assertThat(map.indexOf("c", 2)).isEqualTo(2);
        assertThat(map.indexOf("c", 0)).isEqualTo(2);
        assertThat(map.indexOf("c", 99)).isEqualTo(2);
        assertThat(map.indexOf("d", 1)).isEqualTo(-1);
    }

    @Test
    void itCannotBeChanged() {
        assertThatThrownBy(() -> map.put("d", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(map::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.entrySet().iterator().next().setValue(2))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
