package io.qubiq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Inline;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import io.qubiq.core.config.Variant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An {@code @Inline} record: its keys are written at the level of the record that includes it, and
 * everything (problems, secrets, schema, reference, dumps, diffs) sees them there, exactly as if they
 * were declared in place. {@link Device} includes {@link Broker}; {@link FlatDevice} declares the same
 * keys directly and is the yardstick.
 */
class InlineRecordTest {

    @Doc("Devices by name.")
    record Root(@Doc("The devices.") @Default("{}") Map<String, Device> devices) {
    }

    @Doc("A device connection.")
    record Device(
            @Inline Broker broker,
            @Doc("The client id.") Optional<String> clientId,
            @Doc("The keep-alive interval.") @Default("30") @Range(min = 0, max = 600) int keepAliveS) {
    }

    record Broker(
            @Doc("The broker's host.") String host,
            @Doc("The broker's port.") @Default("1883") @Range(min = 1, max = 65535) int port,
            @Doc("The user name.") Optional<String> username,
            @Doc("The password.") @Secret Optional<String> password) implements ConfigChecked {

        @Override
        public List<Violation> violations() {
            List<Violation> violations = new ArrayList<>();
            if (password.isPresent() && username.isEmpty()) {
                violations.add(new Violation("password", "needs a username"));
            }
            return violations;
        }
    }

    @Doc("Devices by name.")
    record FlatRoot(@Doc("The devices.") @Default("{}") Map<String, FlatDevice> devices) {
    }

    @Doc("A device connection.")
    record FlatDevice(
            @Doc("The broker's host.") String host,
            @Doc("The broker's port.") @Default("1883") @Range(min = 1, max = 65535) int port,
            @Doc("The user name.") Optional<String> username,
            @Doc("The password.") @Secret Optional<String> password,
            @Doc("The client id.") Optional<String> clientId,
            @Doc("The keep-alive interval.") @Default("30") @Range(min = 0, max = 600) int keepAliveS) {
    }

    private static final String YAML = """
            devices:
              plc:
                host: broker.local
                port: 8883
                username: gw
                password: ${secret:plc-password}
                keep_alive_s: 60
            """;

    private static final SecretLookup SECRETS = name -> Optional.ofNullable(Map.of("plc-password", "hunter2",
            "new-password", "hunter3").get(name));

    private static Root bind(String yaml) throws ConfigException {
        return ConfigLoader.bind("gateway.yaml", yaml, Root.class, Map.of(), SECRETS).config();
    }

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> bind(yaml));
        assertThat(e).as("problems expected for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void theInlineRecordsKeysAreWrittenAtTheLevelOfTheRecordThatIncludesIt() throws ConfigException {
        Device plc = bind(YAML).devices().get("plc");

        assertThat(plc).isEqualTo(new Device(new Broker("broker.local", 8883, Optional.of("gw"), Optional.of("hunter2")),
                Optional.empty(), 60));
    }

    @Test
    void leftOutInlineKeysTakeTheirDefaults() throws ConfigException {
        Device plc = bind("devices:\n  plc:\n    host: b\n").devices().get("plc");

        assertThat(plc).isEqualTo(new Device(new Broker("b", 1883, Optional.empty(), Optional.empty()),
                Optional.empty(), 30));
    }

    @Test
    void aMissingRequiredInlineKeyIsReportedAtTheFlatPathWhereTheSectionStarts() {
        assertThat(problems("devices:\n  plc:\n    port: 1884\n")).containsExactly(
                "gateway.yaml:2:3: devices.plc.host: missing required key; expected a string");
    }

    @Test
    void unknownKeysAreCheckedAgainstTheEnclosingAndTheInlineKeysTogether() {
        assertThat(problems("devices:\n  plc:\n    host: b\n    prot: 1\n    broker: {}\n")).containsExactly(
                "gateway.yaml:4:5: devices.plc.prot: unknown key (did you mean `port`?)",
                "gateway.yaml:5:5: devices.plc.broker: unknown key; expected one of `host`, `port`, `username`,"
                        + " `password`, `client_id`, `keep_alive_s`");
    }

    @Test
    void problemsOfInlineKeysAndOfTheInlineRecordsOwnChecksNameTheFlatKeyPath() {
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> bind("devices:\n  plc:\n    host: b\n    port: 70000\n  line:\n    host: c\n    password: x\n"));

        assertThat(e.problems()).extracting(ConfigProblem::keyPath, ConfigProblem::line)
                .containsExactly(tuple("devices.plc.port", 4), tuple("devices.line.password", 7));
        assertThat(e.problems().get(1).message()).isEqualTo("needs a username");
    }

    @Test
    void aSecretInsideTheInlineRecordIsMaskedAndReferencedAtItsFlatPath() throws ConfigException {
        BoundConfig<Root> bound = ConfigLoader.bind("gateway.yaml", YAML, Root.class, Map.of(), SECRETS);
        Root changed = bind(YAML.replace("plc-password", "new-password"));

        assertThat(bound.fromSecrets()).isEqualTo(Map.of("devices.plc.password", List.of("plc-password")));
        assertThat(ConfigTree.masked(bound.config())).isEqualTo(Map.of("devices", Map.of("plc", Map.of(
                "host", "broker.local", "port", 8883, "username", "gw", "password", ConfigTree.MASK,
                "keep_alive_s", 60))));
        assertThat(EffectiveConfig.toYaml(bound.config())).contains("    password: \"***\"\n")
                .doesNotContain("hunter2");
        assertThat(ConfigDiff.between(bound.config(), changed)).containsExactly(
                new ConfigDiff.Change("devices.plc.password", ConfigTree.MASK, ConfigTree.MASK));
    }

    @Test
    void theReferenceIsTheOneOfTheSameKeysDeclaredInPlace() {
        assertThat(ConfigReference.markdown(Root.class)).isEqualTo(ConfigReference.markdown(FlatRoot.class))
                .contains("| `password` | string, optional | none |  | The password. |");
    }

    @Test
    void theSchemaIsTheOneOfTheSameKeysDeclaredInPlace() {
        Map<String, Object> inline = new LinkedHashMap<>(ConfigSchema.of(Root.class));
        Map<String, Object> flat = new LinkedHashMap<>(ConfigSchema.of(FlatRoot.class));
        inline.remove("title");
        flat.remove("title");

        assertThat(inline).isEqualTo(flat);
        Map<?, ?> device = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) inline.get("properties")).get("devices"))
                .get("additionalProperties");
        assertThat(((Map<?, ?>) device.get("properties")).keySet()).map(String::valueOf).containsExactly("host",
                "port", "username", "password", "client_id", "keep_alive_s");
        assertThat(device.get("required")).isEqualTo(List.of("host"));
    }

    @Test
    void theDumpTheTreeAndTheDiffAreThoseOfTheSameKeysDeclaredInPlace() throws ConfigException {
        Root inline = bind(YAML);
        FlatRoot flat = ConfigLoader.bind("gateway.yaml", YAML, FlatRoot.class, Map.of(), SECRETS).config();
        Root other = bind(YAML.replace("8883", "1884").replace("keep_alive_s: 60", "client_id: gw-1"));
        FlatRoot otherFlat = ConfigLoader.bind("gateway.yaml", YAML.replace("8883", "1884")
                .replace("keep_alive_s: 60", "client_id: gw-1"), FlatRoot.class, Map.of(), SECRETS).config();

        assertThat(EffectiveConfig.toYaml(inline)).isEqualTo(EffectiveConfig.toYaml(flat));
        assertThat(ConfigTree.masked(inline)).isEqualTo(ConfigTree.masked(flat));
        assertThat(ConfigDiff.between(inline, other)).isEqualTo(ConfigDiff.between(flat, otherFlat))
                .extracting(ConfigDiff.Change::key)
                .containsExactly("devices.plc.port", "devices.plc.keep_alive_s", "devices.plc.client_id");
        assertThat(bind(EffectiveConfig.toYaml(inline).replace("\"***\"", "${secret:plc-password}"))).isEqualTo(inline);
    }

    @Test
    void aKeyIsFoundWhereTheFileWritesItForPuttingASecretBack() throws ConfigException {
        Device plc = bind(YAML).devices().get("plc");

        assertThat(ConfigTree.valueOf(plc, "password")).contains("hunter2");
        assertThat(ConfigTree.valueOf(plc, "keep_alive_s")).contains(60);
        assertThat(ConfigTree.valueOf(plc, "client_id")).isEmpty();
        assertThat(ConfigTree.valueOf(plc, "broker")).as("the component's name is not a key").isEmpty();
    }

    record Clash(@Inline Broker broker, @Doc("Also a port.") @Default("1") int port) {
    }

    @Test
    void aKeyThatTheInlineAndTheEnclosingRecordBothDeclareIsADeclarationMistake() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", Clash.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the key `port` is declared by both")
                .hasMessageContaining("Broker.port").hasMessageContaining("Clash.port");
    }

    record OptionalInline(@Inline Optional<Broker> broker) {
    }

    record DefaultedInline(@Inline @Default("{host: x}") Broker broker) {
    }

    @Test
    void inlineOnAnythingButAPlainRecordOrWithADefaultIsADeclarationMistake() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", OptionalInline.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OptionalInline.broker: @Inline applies only to a component whose type is a record");
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", DefaultedInline.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("@Inline cannot be combined with @Default");
    }

    record Outer(@Doc("A.") String a, @Inline Middle middle) {
    }

    record Middle(@Doc("B.") String b, @Inline Outer outer) {
    }

    @Test
    void anInlineRecordThatIncludesItselfIsADeclarationMistake() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", Outer.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("includes itself");
    }

    record Typed(@Doc("Selects nothing.") String type) {
    }

    @Variant("typed")
    record Selected(@Inline Typed typed) implements Selectable {
    }

    sealed interface Selectable permits Selected {
    }

    record HoldsSelectable(@Doc("One.") Selectable one) {
    }

    @Test
    void anInlineKeyNamedLikeTheVariantDiscriminatorIsADeclarationMistake() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", HoldsSelectable.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("`type`, which is the key that selects the variant");
    }
}
