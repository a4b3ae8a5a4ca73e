package io.qubiq.config.edit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyPathTest {

    @Test
    void aPathIsReadAndWrittenTheWayTheLoaderNamesKeys() {
        KeyPath path = KeyPath.parse("devices.plc1.opcua.tags[3].node_id");
        assertThat(path.segments()).containsExactly("devices", "plc1", "opcua", "tags", 3, "node_id");
        assertThat(path).hasToString("devices.plc1.opcua.tags[3].node_id");
        assertThat(path.parent()).hasToString("devices.plc1.opcua.tags[3]");
        assertThat(path.last()).isEqualTo("node_id");
    }

    @Test
    void aKeyWithADotOrSpacesIsQuoted() {
        KeyPath path = new KeyPath(List.of("outbound", "db.main", "sql"));
        assertThat(path).hasToString("outbound.\"db.main\".sql");
        assertThat(KeyPath.parse(path.toString())).isEqualTo(path);
    }

    @Test
    void malformedPathsAreRefusedSayingWhy() {
        assertThatThrownBy(() -> KeyPath.parse("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> KeyPath.parse("a..b")).hasMessage("'a..b' is not a key path: an empty key");
        assertThatThrownBy(() -> KeyPath.parse("a[x]")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> KeyPath.parse("a[1")).hasMessageContaining("closing ]");
        assertThatThrownBy(() -> KeyPath.parse("a.")).hasMessageContaining("ends with a dot");
    }
}
