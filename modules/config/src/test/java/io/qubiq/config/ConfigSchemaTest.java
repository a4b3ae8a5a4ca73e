package io.qubiq.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigSchemaTest {

    private final Map<String, Object> schema = ConfigSchema.of(SampleConfig.class);

    @SuppressWarnings("unchecked")
    private static Map<String, Object> at(Map<String, Object> schema, String... path) {
        Object node = schema;
        for (String step : path) {
            node = node instanceof List<?> list ? list.get(Integer.parseInt(step)) : ((Map<String, Object>) node).get(step);
        }
        return (Map<String, Object>) node;
    }

    @Test
    void theRootIsADraft2020ObjectOfTheDeclaredKeysAndNoOthers() {
        assertThat(schema).containsEntry("$schema", "https://json-schema.org/draft/2020-12/schema")
                .containsEntry("type", "object").containsEntry("additionalProperties", false)
                .containsEntry("description", "A gateway as the binder's tests see it.");
        assertThat(at(schema, "properties").keySet()).containsExactly("name", "http", "buffer", "connections", "sinks",
                "labels", "site", "trace_ratio");
        assertThat(schema.get("required")).isEqualTo(List.of("buffer"));
    }

    @Test
    void keysCarryTheirTypeDefaultRangeUnitAndDescription() {
        assertThat(at(schema, "properties", "http", "properties", "port")).containsEntry("type", "integer")
                .containsEntry("minimum", 1L).containsEntry("maximum", 65535L).containsEntry("default", 8080)
                .containsEntry("description", "TCP port to listen on.");
        assertThat(at(schema, "properties", "buffer", "properties", "overflow")).containsEntry("type", "string")
                .containsEntry("enum", List.of("drop_oldest", "block")).containsEntry("default", "drop_oldest");
        assertThat(at(schema, "properties", "buffer", "properties", "directory")).containsEntry("type", "string")
                .doesNotContainKey("default");
        assertThat(at(schema, "properties", "buffer", "properties", "max_bytes")).containsEntry("x-unit", "bytes")
                .containsEntry("minimum", 1024L).doesNotContainKey("maximum");
        assertThat(at(schema, "properties", "trace_ratio")).containsEntry("type", "number").containsEntry("default", 0.25);
        assertThat(at(schema, "properties", "labels")).containsEntry("type", "array")
                .containsEntry("items", Map.of("type", "string")).containsEntry("default", List.of());
        assertThat(at(schema, "properties", "buffer").get("required")).isEqualTo(List.of("directory"));
    }

    @Test
    void aSecretIsWriteOnlyAndItsDefaultIsNeverShown() {
        assertThat(at(schema, "properties", "http", "properties", "admin_password"))
                .containsEntry("writeOnly", true).doesNotContainKey("default");
    }

    @Test
    void variantsSelectedByTypeAreOneOfWithTheirTypeAsAConstant() {
        Map<String, Object> connection = at(schema, "properties", "connections", "additionalProperties");
        assertThat(connection).containsEntry("x-selected-by", "type");
        Map<String, Object> mqtt = at(connection, "oneOf", "0");
        assertThat(at(mqtt, "properties", "type")).containsEntry("const", "mqtt");
        assertThat(mqtt.get("required")).isEqualTo(List.of("type", "broker_url"));
        assertThat(at(mqtt, "properties", "qos")).containsEntry("maximum", 2L);
        assertThat(at(connection, "oneOf", "1", "properties", "type")).containsEntry("const", "opcua");
        assertThat(at(connection, "oneOf", "1", "properties", "sampling_interval_ms"))
                .containsEntry("x-unit", "milliseconds");
    }

    @Test
    void variantsSelectedBySectionAreOneOfEachRequiringItsSection() {
        Map<String, Object> schema = ConfigSchema.of(SectionVariantTest.Root.class);
        Map<String, Object> outbound = at(schema, "properties", "outbound", "additionalProperties");
        assertThat(outbound).containsEntry("x-selected-by", "section");
        List<?> variants = (List<?>) outbound.get("oneOf");
        assertThat(variants).hasSize(2);
        assertThat(at(outbound, "oneOf", "0", "properties").keySet()).containsExactly("mqtt", "retries");
        assertThat(at(outbound, "oneOf", "0").get("required")).isEqualTo(List.of("mqtt"));
        assertThat(at(outbound, "oneOf", "1").get("required")).isEqualTo(List.of("sql"));
        assertThat(at(outbound, "oneOf", "1", "properties", "sql", "properties", "jdbc_url"))
                .containsEntry("type", "string");
    }

    @Test
    void theSameDeclarationsAlwaysGiveTheSameSchema() {
        assertThat(ConfigSchema.of(SampleConfig.class)).isEqualTo(schema);
    }
}
