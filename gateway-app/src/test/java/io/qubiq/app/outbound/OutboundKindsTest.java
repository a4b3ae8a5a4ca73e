package io.qubiq.app.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.config.OutboundConfig;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.config.Variant;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.config.OutputConfig;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The registry of outbound kinds agrees with the configuration's section variants and the design. */
class OutboundKindsTest {

    private static final Path REPO = Path.of(System.getProperty("qubiq.repo", ".."));

    private static Set<String> variantNames(Class<?> sealed) {
        return Arrays.stream(sealed.getPermittedSubclasses()).map(c -> c.getAnnotation(Variant.class).value())
                .collect(Collectors.toSet());
    }

    @Test
    void everyKindHasItsConnectionAndOutputSectionsAndEverySectionItsKind() {
        assertThat(OutboundKinds.names()).containsExactly("questdb", "sql", "mongodb", "mqtt");
        assertThat(variantNames(OutboundConfig.class)).containsExactlyInAnyOrderElementsOf(OutboundKinds.names());
        assertThat(variantNames(OutputConfig.class)).containsExactlyInAnyOrderElementsOf(OutboundKinds.names());
        for (OutboundKind<?, ?, ?> kind : OutboundKinds.all()) {
            assertThat(kind.outputType().getAnnotation(Variant.class).value()).as(kind.name()).isEqualTo(kind.name());
        }
    }

    @Test
    void eachKindTakesTheOverflowPolicyTheDesignGivesIt() {
        Map<String, OverflowPolicy> policies = new LinkedHashMap<>();
        OutboundKinds.all().forEach(kind -> policies.put(kind.name(), kind.defaultOverflow()));

        assertThat(policies).containsExactlyInAnyOrderEntriesOf(Map.of("questdb", OverflowPolicy.DROP_OLDEST,
                "mqtt", OverflowPolicy.DROP_OLDEST, "sql", OverflowPolicy.REFUSE, "mongodb", OverflowPolicy.REFUSE));
    }

    @Test
    void eachKindNamesItsDocumentationAndItExists() {
        for (OutboundKind<?, ?, ?> kind : OutboundKinds.all()) {
            assertThat(REPO.resolve(kind.docs())).as(kind.name()).isRegularFile();
            assertThat(kind.docs()).contains(kind.name());
        }
    }

    @Test
    void theSectionOfEachShippedConnectionSelectsItsKind() throws Exception {
        GatewayConfig config = ConfigLoader.load(REPO.resolve("config/pipelines-example.yaml"), GatewayConfig.class,
                Map.of());
        Map<String, String> kinds = new LinkedHashMap<>();
        config.outbound().forEach((id, connection) -> kinds.put(id, OutboundKinds.of(connection).name()));

        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("plant-db", "sql");
        expected.put("archive", "mongodb");
        expected.put("enterprise-broker", "mqtt");
        expected.put("lake", "questdb");
        assertThat(kinds).containsExactlyEntriesOf(expected);
        config.pipelines().values().forEach(pipeline -> pipeline.outputs().forEach(output ->
                assertThat(OutboundKinds.of(output)).isSameAs(OutboundKinds.of(config.outbound().get(output.connection())))));
    }

    @Test
    void anUnknownKindIsAConfigurationProblemNamingTheFileTheKeyAndTheKnownKinds() throws Exception {
        String yaml = "outbound:\n  plant-db:\n    postgres: {jdbc_url: \"jdbc:postgresql://db/plant\"}\n";

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", yaml, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains(
                "gateway.yaml:2:3: outbound.plant-db: missing a section; expected exactly one of `mongodb`, `mqtt`,"
                        + " `questdb`, `sql`",
                "gateway.yaml:3:5: outbound.plant-db.postgres: unknown key; expected a section `mongodb`, `mqtt`,"
                        + " `questdb`, `sql`");
    }

    @Test
    void twoDestinationSectionsInOneConnectionAreAProblem() {
        String yaml = "outbound:\n  plant-db:\n    sql: {jdbc_url: x}\n    mqtt: {host: broker}\n";

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", yaml, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains("gateway.yaml:4:5: outbound.plant-db.mqtt: only one of `mongodb`, `mqtt`,"
                + " `questdb`, `sql` may be set here, and `sql` already is");
    }

    @Test
    void anOutputOfAnotherKindThanItsConnectionIsAProblemNamingBoth() {
        String yaml = """
                outbound:
                  plant-db:
                    sql: {jdbc_url: "jdbc:postgresql://db/plant"}
                pipelines:
                  p:
                    trigger: {tags: ["a/*"]}
                    outputs:
                      - connection: plant-db
                        mqtt: {topic: t, payload: value}
                """;

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", yaml, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains("pipelines.p.outputs[0].mqtt: connection plant-db is a sql connection;"
                + " write a sql mapping for it");
    }

    @Test
    void theAuditJournalIsForwardedOnlyToKindsWhoseRowsItCanWrite() {
        String yaml = "outbound:\n  broker:\n    mqtt: {host: b}\naudit:\n  forward_to: broker\n";

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", yaml, GatewayConfig.class, Map.of()));

        assertThat(e.getMessage()).contains("audit.forward_to: connection broker is a mqtt connection; the audit"
                + " journal can be forwarded to a questdb or sql connection only");
    }
}
