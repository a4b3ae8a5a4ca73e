package io.qubiq.config;

import static io.qubiq.config.SampleYaml.minimal;
import static io.qubiq.config.SampleYaml.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigProblemsTest {

    @Test
    void reportsEveryProblemAtOnceWithLineNumbers() {
        String yaml = """
                name: north-hall
                http:
                  port: abc
                buffer:
                  directory: /var/lib/qubiq
                  max_byte: 1048576
                sinks:
                  - name: history
                    timeout_ms: 500
                """;

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> SampleYaml.bind(yaml));

        assertThat(e.problems()).containsExactly(
                new ConfigProblem("config/gateway.yaml", 3, 9, "http.port", "expected an integer between 1 and 65535, got \"abc\""),
                new ConfigProblem("config/gateway.yaml", 6, 3, "buffer.max_byte", "unknown key (did you mean `max_bytes`?)"),
                new ConfigProblem("config/gateway.yaml", 8, 5, "sinks[0].url", "missing required key; expected a string"));
        assertThat(e.getMessage()).isEqualTo("""
                3 configuration problems:
                config/gateway.yaml:3:9: http.port: expected an integer between 1 and 65535, got "abc"
                config/gateway.yaml:6:3: buffer.max_byte: unknown key (did you mean `max_bytes`?)
                config/gateway.yaml:8:5: sinks[0].url: missing required key; expected a string""");
    }

    @Test
    void suggestsTheClosestKeyForAMisspeltOne() {
        assertThat(problems(minimal("http:\n  prot: 80\n"))).containsExactly(
                "config/gateway.yaml:4:3: http.prot: unknown key (did you mean `port`?)");
    }

    @Test
    void suggestsTheSnakeCaseSpellingOfACamelCaseKey() {
        assertThat(problems(minimal("http:\n  tlsEnabled: true\n"))).containsExactly(
                "config/gateway.yaml:4:3: http.tlsEnabled: unknown key (did you mean `tls_enabled`?)");
    }

    @Test
    void listsTheValidKeysWhenNoneIsClose() {
        assertThat(problems(minimal("http:\n  certificate: x\n"))).containsExactly(
                "config/gateway.yaml:4:3: http.certificate: unknown key; expected one of"
                        + " `port`, `tls_enabled`, `keystore`, `admin_password`");
    }

    @Test
    void rejectsDuplicateKeysNamingTheFirstOccurrence() {
        assertThat(problems("""
                name: a
                buffer:
                  directory: /x
                  directory: /y
                name: b
                """)).containsExactly(
                "config/gateway.yaml:4:3: buffer.directory: duplicate key (first written at line 3)",
                "config/gateway.yaml:5:1: name: duplicate key (first written at line 1)");
    }

    @Test
    void reportsAYamlSyntaxErrorAsOneProblemAtItsLine() {
        assertThat(problems("""
                name: a
                http:
                  port: 80
                   tls_enabled: true
                buffer: {directory: /x}
                """)).containsExactly("config/gateway.yaml:4:15: YAML syntax error: mapping values are not allowed here");
    }

    @Test
    void reportsAnUnclosedFlowListAsASyntaxError() {
        List<String> problems = problems("labels: [a, b\nbuffer: {directory: /x}\n");

        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).startsWith("config/gateway.yaml:2:").contains("YAML syntax error");
    }

    @Test
    void rejectsMoreThanOneDocument() {
        assertThat(problems("name: a\n---\nname: b\n")).singleElement().asString()
                .isEqualTo("config/gateway.yaml:2:1: YAML syntax error: expected a single document in the stream, but found another document");
    }

    @Test
    void reportsAMissingKeyAtTheKeyThatOwnsItsMapping() {
        assertThat(problems("""
                name: a
                buffer:
                  max_bytes: 2048
                """)).containsExactly("config/gateway.yaml:2:1: buffer.directory: missing required key; expected a file path");
    }

    @Test
    void rejectsValuesOutsideTheirRange() {
        assertThat(problems(minimal("""
                http:
                  port: 70000
                trace_ratio: 1.5
                sinks:
                  - {name: a, url: b, timeout_ms: -1}
                """))).containsExactly(
                "config/gateway.yaml:4:9: http.port: expected an integer between 1 and 65535, got 70000",
                "config/gateway.yaml:5:14: trace_ratio: expected a number between 0 and 1, got 1.5",
                "config/gateway.yaml:7:35: sinks[0].timeout_ms: expected an integer of at least 1, got -1");
    }

    @Test
    void rejectsAMappingWhereAListBelongsAndTheOtherWayRound() {
        assertThat(problems(minimal("labels: {a: 1}\nhttp: [1, 2]\nname: [x]\n"))).containsExactly(
                "config/gateway.yaml:3:9: labels: expected a list, got a mapping",
                "config/gateway.yaml:4:7: http: expected a mapping, got a list",
                "config/gateway.yaml:5:7: name: expected a string, got a list");
    }

    @Test
    void rejectsAnUnknownVariantTypeWithASuggestion() {
        assertThat(problems(minimal("""
                connections:
                  plc1:
                    type: opc-ua
                    endpoint_url: opc.tcp://x
                  plc2:
                    endpoint_url: opc.tcp://y
                """))).containsExactly(
                "config/gateway.yaml:5:11: connections.plc1.type: unknown type \"opc-ua\"; expected one of `mqtt`, `opcua`"
                        + " (did you mean `opcua`?)",
                "config/gateway.yaml:7:3: connections.plc2.type: missing required key; expected one of `mqtt`, `opcua`");
    }

    @Test
    void checksKeysAgainstTheChosenVariantOnly() {
        assertThat(problems(minimal("""
                connections:
                  broker:
                    type: mqtt
                    broker_url: tcp://b
                    endpoint_url: opc.tcp://x
                """))).containsExactly(
                "config/gateway.yaml:7:5: connections.broker.endpoint_url: unknown key; expected one of"
                        + " `broker_url`, `topics`, `qos`");
    }

    @Test
    void reportsCrossKeyViolationsAtTheOffendingKey() {
        assertThat(problems(minimal("  low_water_mark: 900\n  high_water_mark: 800\n"))).containsExactly(
                "config/gateway.yaml:3:3: buffer.low_water_mark: must be below high_water_mark (800)");
    }

    @Test
    void reportsCrossKeyViolationsAtTheSectionWhenTheKeyWasDefaulted() {
        assertThat(problems(minimal("  high_water_mark: 400\n"))).containsExactly(
                "config/gateway.yaml:1:1: buffer.low_water_mark: must be below high_water_mark (400)");
    }

    @Test
    void rejectsEnumValuesNotWrittenInLowerSnakeCase() {
        assertThat(problems(minimal("  overflow: DROP_OLDEST\n"))).containsExactly(
                "config/gateway.yaml:3:13: buffer.overflow: expected one of `drop_oldest`, `block`, got \"DROP_OLDEST\""
                        + " (did you mean `drop_oldest`?)");
        assertThat(problems(minimal("  overflow: discard\n"))).containsExactly(
                "config/gateway.yaml:3:13: buffer.overflow: expected one of `drop_oldest`, `block`, got \"discard\"");
    }

    @Test
    void neverShowsTheValueOfASecretKeyGivenTheWrongShape() {
        String yaml = minimal("""
                http:
                  admin_password: [hunter2]
                connections:
                  plc:
                    type: opcua
                    endpoint_url: opc.tcp://x
                    password: {value: hunter2}
                sinks:
                  - name: a
                    url: ${DB_URL:-postgres://admin:hunter2@db}
                    timeout_ms: 5
                """);
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> SampleYaml.bind(yaml));

        assertThat(e.problems()).extracting(ConfigProblem::keyPath)
                .containsExactly("http.admin_password", "connections.plc.password");
        assertThat(e.getMessage()).doesNotContain("hunter2");
    }

    @Test
    void reportsAConstructorsOwnCheckAsAProblem() {
        assertThat(catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("f.yaml", "low: 5\nhigh: 1\n", Checked.class, java.util.Map.of()))
                .problems()).containsExactly(new ConfigProblem("f.yaml", 1, 1, "", "low must not exceed high"));
    }

    record Checked(@io.qubiq.core.config.Doc("Low.") int low, @io.qubiq.core.config.Doc("High.") int high) {
        Checked {
            if (low > high) {
                throw new IllegalArgumentException("low must not exceed high");
            }
        }
    }

    @Test
    void rejectsATopLevelThatIsNotAMapping() {
        assertThat(problems("- a\n- b\n")).containsExactly(
                "config/gateway.yaml:1:1: expected a mapping of keys at the top of the file, got a list");
    }

    @Test
    void rejectsAnAliasThatContainsItself() {
        assertThat(problems(minimal("labels: &l [a, *l]\n"))).isNotEmpty();
    }
}
