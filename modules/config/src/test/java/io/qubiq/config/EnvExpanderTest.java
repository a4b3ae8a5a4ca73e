package io.qubiq.config;

import static io.qubiq.config.SampleYaml.bind;
import static io.qubiq.config.SampleYaml.minimal;
import static io.qubiq.config.SampleYaml.problems;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EnvExpanderTest {

    private final EnvExpander expander = new EnvExpander(
            name -> Optional.ofNullable(Map.of("HOST", "plc.local", "PORT", "4840", "EMPTY", "").get(name)));

    @Test
    void replacesEveryReferenceInsideTheText() {
        assertThat(expander.expand("opc.tcp://${HOST}:${PORT}/ua").text()).isEqualTo("opc.tcp://plc.local:4840/ua");
    }

    @Test
    void takesTheFallbackWhenTheVariableIsUnsetOrEmpty() {
        assertThat(expander.expand("${NOPE:-local}").text()).isEqualTo("local");
        assertThat(expander.expand("${EMPTY:-local}").text()).isEqualTo("local");
        assertThat(expander.expand("${HOST:-local}").text()).isEqualTo("plc.local");
        assertThat(expander.expand("${NOPE:-}").text()).isEmpty();
    }

    @Test
    void writesALiteralDollarBraceForADoubledDollar() {
        EnvExpander.Expansion expansion = expander.expand("price $${HOST} and $5 and ${HOST}");

        assertThat(expansion.text()).isEqualTo("price ${HOST} and $5 and plc.local");
        assertThat(expansion.ok()).isTrue();
    }

    @Test
    void leavesTextWithoutReferencesAlone() {
        EnvExpander.Expansion expansion = expander.expand("plain $ text");

        assertThat(expansion.text()).isEqualTo("plain $ text");
        assertThat(expansion.expanded()).isFalse();
    }

    @Test
    void reportsEveryUnsetVariable() {
        assertThat(expander.expand("${A}-${HOST}-${B}").errors()).containsExactly(
                "environment variable A is not set (write `${A:-fallback}` to give a default)",
                "environment variable B is not set (write `${B:-fallback}` to give a default)");
    }

    @Test
    void reportsMalformedReferences() {
        assertThat(expander.expand("${HOST").errors()).singleElement().asString().contains("not closed");
        assertThat(expander.expand("${1X}").errors()).singleElement().asString().contains("does not name");
    }

    @Test
    void expandsScalarsBeforeTheyAreTyped() throws ConfigException {
        SampleConfig config = bind(minimal("""
                http:
                  port: ${HTTP_PORT}
                  tls_enabled: "${TLS:-false}"
                """), Map.of("HTTP_PORT", "9443"));

        assertThat(config.http().port()).isEqualTo(9443);
        assertThat(config.http().tlsEnabled()).isFalse();
    }

    @Test
    void typesTheExpandedTextStrictly() {
        assertThat(problems(minimal("http:\n  port: ${HTTP_PORT}\n"), Map.of("HTTP_PORT", "yes"))).containsExactly(
                "config/gateway.yaml:4:9: http.port: expected an integer between 1 and 65535, got \"yes\"");
    }

    @Test
    void namesTheKeyAndTheVariableWhenOneIsUnset() {
        assertThat(problems(minimal("name: gw-${SITE_ID}\n"), Map.of())).containsExactly(
                "config/gateway.yaml:3:7: name: environment variable SITE_ID is not set"
                        + " (write `${SITE_ID:-fallback}` to give a default)");
    }

    @Test
    void neverExpandsKeys() {
        assertThat(problems(minimal("${KEY}: x\n"), Map.of("KEY", "name"))).containsExactly(
                "config/gateway.yaml:3:1: ${KEY}: unknown key; expected one of `name`, `http`, `buffer`, `connections`,"
                        + " `sinks`, `labels`, `site`, `trace_ratio`");
    }

    record Door(@io.qubiq.core.config.Doc("Door code.") @io.qubiq.core.config.Secret
            @io.qubiq.core.config.Range(min = 0, max = 9999) int pin) {
    }

    @Test
    void neverShowsTheExpandedValueOfASecret() {
        ConfigException wrongType = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("door.yaml", "pin: ${PIN}\n", Door.class, Map.of("PIN", "abc123")));
        ConfigException outOfRange = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("door.yaml", "pin: ${PIN}\n", Door.class, Map.of("PIN", "123456")));

        assertThat(wrongType.getMessage()).endsWith("door.yaml:1:6: pin: expected an integer between 0 and 9999, got ***");
        assertThat(outOfRange.getMessage()).endsWith("door.yaml:1:6: pin: expected an integer between 0 and 9999, got ***");
    }
}
