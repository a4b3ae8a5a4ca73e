package io.qubiq.sink.sql;

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

class SqlSinkConfigTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", "../.."));

    @Test
    void sampleConfigurationParses() throws Exception {
        SqlSinkConfig config = ConfigLoader.load(Path.of("src/test/resources/sql-sink.yaml"), SqlSinkConfig.class,
                Map.of("PLANT_DB_PASSWORD", "s3cret;x"));

        assertThat(config.jdbcUrl()).isEqualTo("jdbc:postgresql://db.plant.local:5432/plant?ssl=true&sslmode=verify-full");
        assertThat(config.username()).contains("gateway");
        assertThat(config.password()).contains("s3cret;x");
        assertThat(config.maxPoolSize()).isEqualTo(3);
        assertThat(config.connectionTimeoutMs()).isEqualTo(3000);
        assertThat(config.statementTimeoutMs()).isEqualTo(10000);
        assertThat(config.idempotent()).isTrue();
        assertThat(config.toString()).doesNotContain("s3cret");
    }

    @Test
    void onlyTheUrlIsRequiredAndTheRestTakesTheDocumentedDefaults() throws Exception {
        SqlSinkConfig config = ConfigLoader.parse("sql.yaml", "jdbc_url: jdbc:postgresql://db/plant", SqlSinkConfig.class,
                Map.of());

        assertThat(config).isEqualTo(SqlSinkConfig.of("jdbc:postgresql://db/plant"));
        assertThat(config.maxPoolSize()).isEqualTo(2);
        assertThat(config.idempotent()).isFalse();
        assertThatThrownBy(() -> ConfigLoader.parse("sql.yaml", "", SqlSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("jdbc_url"));
    }

    @Test
    void aUrlThatIsNotJdbcAndAPasswordWithoutUserAreReportedTogether() {
        assertThatThrownBy(() -> ConfigLoader.parse("sql.yaml", """
                jdbc_url: "postgresql://db/plant"
                password: x
                max_pool_size: 1
                """, SqlSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("max_pool_size"));
        assertThatThrownBy(() -> ConfigLoader.parse("sql.yaml", """
                jdbc_url: "postgresql://db/plant"
                password: x
                """, SqlSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("jdbc_url", "username"));
    }

    @Test
    void sinkRefusesAnUrlNoDriverAcceptsAsAConfigurationErrorOfTheUrl() {
        for (String url : new String[] {"postgresql://db/plant", "jdbc:", "jdbc:nosuchdriver://db/x?password=secret"}) {
            assertThatThrownBy(() -> new SqlSinkFactory().create("sql", SqlSinkConfig.of(url)))
                    .as(url)
                    .isInstanceOf(ConfigurationException.class)
                    .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("jdbc_url"))
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
        }
    }

    @Test
    void theSinkIsIdempotentExactlyWhenConfiguredSo() throws Exception {
        try (SqlSink plain = new SqlSink("a", SqlSinkConfig.of("jdbc:postgresql://127.0.0.1:1/x"));
             SqlSink idempotent = new SqlSink("b", SqlSinkConfig.of("jdbc:postgresql://127.0.0.1:1/x")
                     .withIdempotent(true))) {
            assertThat(plain.idempotent()).isFalse();
            assertThat(idempotent.idempotent()).isTrue();
        }
    }

    @Test
    void sqlSinkDocsListEveryKeyAsDeclared() {
        // Regenerate with -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/sinks/sql.md"),
                SqlSinkConfig.class);
        assertThat(mismatch).as("docs/sinks/sql.md is out of date").isEmpty();
    }
}
