package io.qubiq.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Variant;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Mistakes in the record declarations are bugs: they fail before any file is read, whatever it says. */
class DeclarationMistakesTest {

    record Unsupported(@Doc("Timeout.") Duration timeout) {
    }

    record SetOfNames(@Doc("Names.") Set<String> names) {
    }

    record RangeOnText(@Doc("Name.") @Range(min = 1) String name) {
    }

    record BadDefault(@Doc("Port.") @Default("[unclosed") int port) {
    }

    record Holder(@Doc("Nested.") Unsupported nested) {
    }

    sealed interface Shape permits Square {
    }

    record Square(@Doc("Side.") int side) implements Shape {
    }

    record HoldsShape(@Doc("Shape.") Shape shape) {
    }

    @Variant("typed")
    record Typed(@Doc("Clashes with the discriminator.") String type) implements Clash {
    }

    sealed interface Clash permits Typed {
    }

    record HoldsClash(@Doc("Clash.") Clash clash) {
    }

    record Undocumented(int port, @Doc("Host.") String host) {
    }

    @Test
    void rejectsUnsupportedTypesNamingTheComponent() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", Unsupported.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unsupported.timeout: java.time.Duration is not a configuration type");
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", SetOfNames.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SetOfNames.names");
    }

    @Test
    void rejectsUnsupportedTypesInNestedRecordsEvenWhenTheFileDoesNotUseThem() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", Holder.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unsupported.timeout");
    }

    @Test
    void rejectsARangeOnANonNumericKey() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "name: x", RangeOnText.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RangeOnText.name: @Range applies only to int, long and double keys");
    }

    @Test
    void rejectsADefaultThatIsNotYaml() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", BadDefault.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BadDefault.port: @Default(\"[unclosed\") is not a valid value for this key:"
                        + " YAML syntax error");
    }

    record OutOfRangeDefault(@Doc("Port.") @Default("70000") @Range(min = 1, max = 65535) int port) {
    }

    @Test
    void rejectsADefaultOutsideItsOwnRangeEvenWhenTheFileSetsTheKey() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "port: 80", OutOfRangeDefault.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("io.qubiq.config.DeclarationMistakesTest$OutOfRangeDefault.port: @Default(\"70000\") is not"
                        + " a valid value for this key: expected an integer between 1 and 65535, got 70000");
    }

    @Test
    void rejectsSealedRecordsWithoutVariantNames() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", HoldsShape.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a record annotated @Variant");
    }

    @Test
    void rejectsAVariantWithAComponentNamedType() {
        assertThatThrownBy(() -> ConfigLoader.parse("f", "", HoldsClash.class, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has a component named `type`");
    }

    @Test
    void refusesToDocumentKeysWithoutDoc() {
        assertThatThrownBy(() -> ConfigReference.markdown(Undocumented.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("configuration keys without @Doc: Undocumented.port");
    }
}
