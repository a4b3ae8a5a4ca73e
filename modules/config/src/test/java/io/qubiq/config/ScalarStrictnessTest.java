package io.qubiq.config;

import static io.qubiq.config.SampleYaml.bind;
import static io.qubiq.config.SampleYaml.minimal;
import static io.qubiq.config.SampleYaml.problems;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScalarStrictnessTest {

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no", "on", "off", "y", "True", "FALSE"})
    void acceptsOnlyTrueAndFalseForBooleans(String written) {
        assertThat(problems(minimal("http:\n  tls_enabled: " + written + "\n"))).containsExactly(
                "config/gateway.yaml:4:16: http.tls_enabled: expected true or false, got \"" + written + "\""
                        + " (only true and false are booleans here)");
    }

    @Test
    void rejectsOtherTextAndQuotedBooleans() {
        assertThat(problems(minimal("http:\n  tls_enabled: 1\n"))).containsExactly(
                "config/gateway.yaml:4:16: http.tls_enabled: expected true or false, got \"1\"");
        assertThat(problems(minimal("http:\n  tls_enabled: \"true\"\n"))).containsExactly(
                "config/gateway.yaml:4:16: http.tls_enabled: expected true or false, got \"true\" (write booleans without quotes)");
    }

    @Test
    void keepsYesAndOnAsTextInStringKeys() throws ConfigException {
        SampleConfig config = bind(minimal("name: yes\nlabels: [on, off, no, ~x, 0777, 1.50, true]\n"));

        assertThat(config.name()).isEqualTo("yes");
        assertThat(config.labels()).containsExactly("on", "off", "no", "~x", "0777", "1.50", "true");
    }

    @Test
    void rejectsAStringWrittenAsNothing() {
        assertThat(problems(minimal("name:\n"))).containsExactly(
                "config/gateway.yaml:3:6: name: expected a string, got nothing (write \"\" for an empty string)");
    }

    @Test
    void neverCoercesTextOrDecimalsToIntegers() {
        assertThat(problems(minimal("http:\n  port: 80.5\n  keystore: ks\nsinks: [{name: a, url: b, timeout_ms: 1e3}]\n")))
                .containsExactly(
                        "config/gateway.yaml:4:9: http.port: expected an integer between 1 and 65535, got \"80.5\"",
                        "config/gateway.yaml:6:39: sinks[0].timeout_ms: expected an integer of at least 1, got \"1e3\"");
    }

    @Test
    void rejectsLeadingZerosThatYaml11ReadsAsOctal() {
        assertThat(problems(minimal("http:\n  port: 0443\n"))).containsExactly(
                "config/gateway.yaml:4:9: http.port: expected an integer between 1 and 65535, got \"0443\""
                        + " (a leading zero means octal to some YAML readers; write the number without it)");
    }

    @Test
    void rejectsQuotedNumbers() {
        assertThat(problems(minimal("http:\n  port: \"8080\"\n"))).containsExactly(
                "config/gateway.yaml:4:9: http.port: expected an integer between 1 and 65535,"
                        + " got the quoted string \"8080\" (write numbers without quotes)");
    }

    @Test
    void rejectsIntegersBeyondTheirJavaType() {
        assertThat(problems(minimal("connections:\n  m: {type: mqtt, broker_url: b, qos: 99999999999999999999}\n")))
                .containsExactly("config/gateway.yaml:4:39: connections.m.qos: expected an integer between 0 and 2,"
                        + " got 99999999999999999999");
        assertThat(problems(minimal("  max_bytes: 99999999999999999999\n"))).containsExactly(
                "config/gateway.yaml:3:14: buffer.max_bytes: expected an integer of at least 1024,"
                        + " got 99999999999999999999");
    }

    @Test
    void acceptsIntegersAndExponentsForDecimalKeys() throws ConfigException {
        assertThat(bind(minimal("trace_ratio: 1\n")).traceRatio()).isEqualTo(1.0);
        assertThat(bind(minimal("trace_ratio: 5e-1\n")).traceRatio()).isEqualTo(0.5);
        assertThat(bind(minimal("trace_ratio: .125\n")).traceRatio()).isEqualTo(0.125);
    }

    @Test
    void rejectsNotANumberForDecimalKeys() {
        assertThat(problems(minimal("trace_ratio: .nan\n"))).containsExactly(
                "config/gateway.yaml:3:14: trace_ratio: expected a number between 0 and 1, got \".nan\"");
    }
}
