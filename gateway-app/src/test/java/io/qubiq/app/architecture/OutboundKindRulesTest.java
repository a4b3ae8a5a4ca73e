package io.qubiq.app.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.qubiq.app.config.OutboundConfig;
import io.qubiq.app.outbound.OutboundKinds;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.config.OutputConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An outbound kind is decided in one place: {@link OutboundKinds} is the only class that knows the
 * kinds, and only the kinds look at the section variants of their own configuration. Code elsewhere
 * asks the kind instead of testing which kind it has (a test on a variant's class would be a
 * dependency on it; a switch on a kind's name has no other way to reach the kind's settings).
 */
class OutboundKindRulesTest {

    static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.qubiq");
    }

    static ArchRule onlyTheRegistryKnowsTheKinds() {
        return noClasses().that().doNotHaveFullyQualifiedName(OutboundKinds.class.getName())
                .and().doNotImplement(OutboundKind.class)
                .should().dependOnClassesThat().implement(OutboundKind.class)
                .as("only OutboundKinds names the outbound kinds");
    }

    static ArchRule onlyTheKindsLookAtTheSectionVariants() {
        return noClasses().that().doNotImplement(OutboundKind.class)
                .and().doNotBelongToAnyOf(OutboundConfig.class, OutputConfig.class)
                .should().dependOnClassesThat().belongToAnyOf(OutboundConfig.QuestDb.class, OutboundConfig.Sql.class,
                        OutboundConfig.MongoDb.class, OutboundConfig.Mqtt.class, OutputConfig.QuestDb.class,
                        OutputConfig.Sql.class, OutputConfig.MongoDb.class, OutputConfig.Mqtt.class)
                .as("only an outbound kind looks at its own configuration variants");
    }

    @Test
    void onlyTheRegistryNamesTheOutboundKinds() {
        onlyTheRegistryKnowsTheKinds().check(production);
    }

    @Test
    void onlyEachKindLooksAtItsOwnSectionVariants() {
        onlyTheKindsLookAtTheSectionVariants().check(production);
    }

    @Test
    void sinkModulesKnowNeitherTheApplicationNorTheKindInterface() {
        noClasses().that().resideInAPackage("io.qubiq.sink..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qubiq.app..", "io.qubiq.pipeline..")
                .as("a sink is a driver: the kind that wires it sits above it")
                .check(production);
    }

    @Test
    void theRulesCatchAClassThatDispatchesOnAKind() {
        JavaClasses fixture = new ClassFileImporter().importClasses(KindDispatchFixture.class);

        assertThat(onlyTheKindsLookAtTheSectionVariants().evaluate(fixture).hasViolation()).isTrue();
    }

    /** What the rules forbid: wiring that tests which variant it was given. */
    static final class KindDispatchFixture {
        static String kindOf(OutboundConfig config) {
            return config instanceof OutboundConfig.Sql ? "sql" : "other";
        }
    }
}
