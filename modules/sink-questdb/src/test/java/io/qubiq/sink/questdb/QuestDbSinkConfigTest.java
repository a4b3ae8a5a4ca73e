package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.ConfigReference;
import io.qubiq.core.error.ConfigurationException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QuestDbSinkConfigTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", "../.."));

    @Test
    void sampleConfigurationParses() throws Exception {
        QuestDbSinkConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-questdb-sink.yaml"),
                QuestDbSinkConfig.class, Map.of("QUESTDB_PASSWORD", "s3cret;x"));

        assertThat(config.address()).isEqualTo("questdb.plant.local:9000");
        assertThat(config.tls()).isTrue();
        assertThat(config.username()).contains("gateway");
        assertThat(config.password()).contains("s3cret;x");
        assertThat(config.requestTimeoutMs()).isEqualTo(5000);
        assertThat(config.minRequestThroughputBytesPerSecond()).isEqualTo(204800);
        assertThat(config.idempotent()).isTrue();
    }

    @Test
    void emptySectionTakesTheDocumentedDefaults() throws Exception {
        QuestDbSinkConfig config = ConfigLoader.parse("empty.yaml", "", QuestDbSinkConfig.class, Map.of());

        assertThat(config).isEqualTo(QuestDbSinkConfig.defaults());
        assertThat(new QuestDbSink("qdb", config).idempotent()).isFalse();
    }

    @Test
    void malformedAddressAndMixedCredentialsAreReportedTogether() {
        assertThatThrownBy(() -> ConfigLoader.parse("qdb.yaml", """
                address: "questdb:http"
                token: abc
                username: gateway
                """, QuestDbSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("address", "token", "password"));
    }

    @Test
    void sinkRefusesAMalformedAddressAsAConfigurationError() {
        for (String address : new String[] {"localhost", "localhost:", ":9000", "localhost:0", "localhost:70000",
                "http://localhost:9000", "a b:9000"}) {
            assertThatThrownBy(() -> new QuestDbSinkFactory().create("qdb", QuestDbSinkConfig.of(address)))
                    .as(address)
                    .isInstanceOf(ConfigurationException.class)
                    .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("address"));
        }
    }

    @Test
    void connectStringTurnsClientRetriesAndAutoFlushOffAndEscapesSecrets() {
        QuestDbSinkConfig config = new QuestDbSinkConfig("db.local:9000", true, false, Optional.of("to;ken"),
                Optional.empty(), Optional.empty(), 1500, 0, false);

        assertThat(SenderSettings.connectString(config, HostPort.parse(config.address()).orElseThrow()))
                .isEqualTo("https::addr=db.local:9000;auto_flush=off;retry_timeout=0;request_timeout=1500;"
                        + "request_min_throughput=0;protocol_version=2;tls_verify=unsafe_off;token=to;;ken;");
    }

    @Test
    void questDbSinkDocsListEveryKeyAsDeclared() {
        // Regenerate with -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/sinks/questdb.md"),
                QuestDbSinkConfig.class);
        assertThat(mismatch).as("docs/sinks/questdb.md is out of date").isEmpty();
    }
}
