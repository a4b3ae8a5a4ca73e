package io.qubiq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.SelectedBySection;
import io.qubiq.core.config.Variant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A sealed interface marked {@code @SelectedBySection}: the section that is present picks the variant. */
class SectionVariantTest {

    @Doc("Destinations by name.")
    record Root(@Doc("The destinations.") @Default("{}") Map<String, Destination> outbound) {
    }

    @Doc("One destination: exactly one section.")
    @SelectedBySection
    sealed interface Destination {
        int retries();
    }

    @Doc("A database.")
    @Variant("sql")
    record Sql(@Doc("The database.") Database sql, @Doc("Attempts.") @Default("3") int retries) implements Destination {
    }

    @Doc("A broker.")
    @Variant("mqtt")
    record Mqtt(@Doc("The broker.") Broker mqtt, @Doc("Attempts.") @Default("3") int retries) implements Destination {
    }

    @Doc("Database settings.")
    record Database(@Doc("JDBC URL.") String jdbcUrl) {
    }

    @Doc("Broker settings.")
    record Broker(@Doc("Broker URL.") String url) {
    }

    @Variant("sql")
    record Unsectioned(@Doc("No section named sql.") String url) implements WithoutSection {
    }

    @SelectedBySection
    sealed interface WithoutSection permits Unsectioned {
    }

    record BadRoot(@Default("{}") Map<String, WithoutSection> outbound) {
    }

    private static Root bind(String yaml) throws ConfigException {
        return ConfigLoader.parse("gateway.yaml", yaml, Root.class, Map.of());
    }

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> bind(yaml));
        assertThat(e).as("problems expected for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void theSectionThatIsPresentSelectsTheVariantAndItsSiblingsBindToIt() throws ConfigException {
        Root root = bind("""
                outbound:
                  db:
                    sql:
                      jdbc_url: jdbc:postgresql://db/x
                    retries: 5
                  broker:
                    mqtt: {url: tcp://b:1883}
                """);

        assertThat(root.outbound().get("db")).isEqualTo(new Sql(new Database("jdbc:postgresql://db/x"), 5));
        assertThat(root.outbound().get("broker")).isEqualTo(new Mqtt(new Broker("tcp://b:1883"), 3));
    }

    @Test
    void anUnknownSectionIsAProblemNamingTheKnownOnes() {
        assertThat(problems("outbound:\n  db:\n    postgres: {jdbc_url: x}\n")).containsExactly(
                "gateway.yaml:2:3: outbound.db: missing a section; expected exactly one of `mqtt`, `sql`",
                "gateway.yaml:3:5: outbound.db.postgres: unknown key; expected a section `mqtt`, `sql`");
    }

    @Test
    void aMisspeltSectionGetsASuggestion() {
        assertThat(problems("outbound:\n  db:\n    sqll: {jdbc_url: x}\n"))
                .contains("gateway.yaml:3:5: outbound.db.sqll: unknown key (did you mean `sql`?)");
    }

    @Test
    void twoSectionsAreAProblemAtTheSecond() {
        assertThat(problems("outbound:\n  db:\n    sql: {jdbc_url: x}\n    mqtt: {url: y}\n")).containsExactly(
                "gateway.yaml:4:5: outbound.db.mqtt: only one of `mqtt`, `sql` may be set here, and `sql` already is");
    }

    @Test
    void keysInsideTheChosenSectionAreCheckedAgainstItsRecord() {
        assertThat(problems("outbound:\n  db:\n    sql: {jdbcurl: x}\n")).contains(
                "gateway.yaml:3:11: outbound.db.sql.jdbcurl: unknown key (did you mean `jdbc_url`?)");
    }

    @Test
    void theEffectiveConfigurationWritesTheSectionWithoutATypeKeyAndLoadsBack() throws ConfigException {
        Root root = bind("outbound:\n  db:\n    sql: {jdbc_url: jdbc:x}\n");

        String yaml = EffectiveConfig.toYaml(root);

        assertThat(yaml).doesNotContain("type:").contains("sql:");
        assertThat(bind(yaml)).isEqualTo(root);
    }

    @Test
    void theReferenceDescribesEachVariantBySectionAndSharedKeysOnce() {
        String markdown = ConfigReference.markdown(Root.class);

        assertThat(markdown).contains("Exactly one section, which selects the variant: `mqtt`, `sql`.")
                .contains("### `outbound.<name>` with `sql:`").contains("### `outbound.<name>` with `mqtt:`")
                .contains("| `sql` | section `outbound.<name>.sql` | required | selects this variant | The database. |")
                .doesNotContain("`type`");
    }

    @Test
    void aVariantWithoutItsSectionIsADeclarationMistake() {
        assertThatThrownBy(() -> ConfigLoader.parse("x.yaml", "", BadRoot.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no component named `sql`, the section that selects it");
    }
}
