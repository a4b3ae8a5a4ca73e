package io.qubiq.sink.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.WriteConcern;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.ConfigReference;
import io.qubiq.core.error.ConfigurationException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MongoSinkConfigTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", "../.."));

    @Test
    void sampleConfigurationParses() throws Exception {
        MongoSinkConfig config = ConfigLoader.load(Path.of("src/test/resources/mongodb-sink.yaml"), MongoSinkConfig.class,
                Map.of("MONGODB_URI", "mongodb://gateway:s3cr%40t@mongo1.plant.local,mongo2.plant.local/admin?replicaSet=rs0"));

        assertThat(config.connectionString()).startsWith("mongodb://gateway:s3cr%40t@mongo1");
        assertThat(config.database()).isEqualTo("plant1");
        assertThat(config.serverSelectionTimeoutMs()).isEqualTo(3000);
        assertThat(config.connectTimeoutMs()).isEqualTo(2000);
        assertThat(config.socketTimeoutMs()).isEqualTo(15000);
        assertThat(config.writeConcern()).isEqualTo("majority");
    }

    @Test
    void onlyTheDatabaseIsRequiredAndTheRestTakesTheDocumentedDefaults() throws Exception {
        MongoSinkConfig config = ConfigLoader.parse("mongo.yaml", "database: plant1\n", MongoSinkConfig.class, Map.of());

        assertThat(config).isEqualTo(MongoSinkConfig.of("mongodb://127.0.0.1:27017", "plant1"));
        assertThatThrownBy(() -> ConfigLoader.parse("mongo.yaml", "", MongoSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("database"));
    }

    @Test
    void badKeysAreReportedTogetherWithoutPrintingTheConnectionString() {
        assertThatThrownBy(() -> ConfigLoader.parse("mongo.yaml", """
                connection_string: "postgres://gateway:hunter2@db"
                database: "plant.1"
                write_concern: "0"
                """, MongoSinkConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> {
                    assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                            .contains("connection_string", "database", "write_concern");
                    assertThat(e.getMessage()).doesNotContain("hunter2").contains("unacknowledged");
                });
    }

    @Test
    void aMalformedConnectionStringIsRefusedWithoutItsPassword() {
        MongoSinkConfig config = MongoSinkConfig.of("mongodb://gateway:hunter2@", "plant1");

        assertThat(config.violations()).singleElement().satisfies(v -> {
            assertThat(v.key()).isEqualTo("connection_string");
            assertThat(v.message()).contains("not a valid MongoDB connection string").doesNotContain("hunter2");
        });
        assertThatThrownBy(() -> new MongoSinkFactory().create("m", config))
                .isInstanceOf(ConfigurationException.class)
                .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("connection_string"));
    }

    @Test
    void writeConcernIsMajorityOrANumberOfMembers() {
        assertThat(MongoSinkConfig.of("mongodb://h", "d").withWriteConcern("2").violations()).isEmpty();
        assertThat(MongoSinkConfig.of("mongodb://h", "d").withWriteConcern("w1").violations())
                .extracting(MongoSinkConfig.Violation::key).containsExactly("write_concern");
        assertThat(MongoSinkConfig.of("mongodb://h", "d").withWriteConcern("51").violations()).hasSize(1);
    }

    @Test
    void theSinksKeysOverrideTheConnectionStringAndTheDriverNeverRetries() {
        MongoSinkConfig config = MongoSinkConfig.of("mongodb://h1/?w=0&retryWrites=true&socketTimeoutMS=1"
                + "&serverSelectionTimeoutMS=1", "d").withTimeouts(1500, 2500, 3500).withWriteConcern("1");

        var settings = DriverSettings.of("historian-copy", config);

        assertThat(settings.getWriteConcern()).isEqualTo(WriteConcern.W1);
        assertThat(settings.getRetryWrites()).isFalse();
        assertThat(settings.getRetryReads()).isFalse();
        assertThat(settings.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS)).isEqualTo(1500);
        assertThat(settings.getSocketSettings().getConnectTimeout(TimeUnit.MILLISECONDS)).isEqualTo(2500);
        assertThat(settings.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isEqualTo(3500);
        assertThat(settings.getApplicationName()).isEqualTo("qubiq:historian-copy");
        assertThat(DriverSettings.of("m", MongoSinkConfig.of("mongodb://h", "d")).getWriteConcern())
                .isEqualTo(WriteConcern.MAJORITY);
    }

    @Test
    void mongoDbSinkDocsListEveryKeyAsDeclared() {
        // Regenerate with -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/sinks/mongodb.md"),
                MongoSinkConfig.class);
        assertThat(mismatch).as("docs/sinks/mongodb.md is out of date").isEmpty();
    }
}
