package io.qubiq.app.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.qubiq.app.config.DeviceConfig;
import io.qubiq.app.devices.DeviceKinds;
import io.qubiq.app.pipelines.MqttDeviceMessages;
import io.qubiq.connector.mqtt.MqttConnector;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.DeviceKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A device connection's kind is decided in one place: {@link DeviceKinds} is the only class that
 * knows the kinds, only the kinds look at the section variants of {@link DeviceConfig}, and generic
 * wiring builds no concrete connector and tests no connector's class. What is one protocol's own
 * business stays with a class named for it: the OPC UA certificates, the MQTT messages that trigger
 * pipelines.
 */
class DeviceKindRulesTest {

    /** The classes beside the kinds that may know one protocol's connector, each for its protocol's own feature. */
    private static final String OPCUA_CERTIFICATES = "io.qubiq.app.devices.OpcUaCertificates";

    static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.qubiq");
    }

    static ArchRule onlyTheRegistryKnowsTheKinds() {
        return noClasses().that().doNotHaveFullyQualifiedName(DeviceKinds.class.getName())
                .and().doNotImplement(DeviceKind.class)
                .should().dependOnClassesThat().implement(DeviceKind.class)
                .as("only DeviceKinds names the device kinds");
    }

    static ArchRule onlyTheKindsLookAtTheSectionVariants() {
        return noClasses().that().doNotImplement(DeviceKind.class)
                .and().doNotBelongToAnyOf(DeviceConfig.class)
                .should().dependOnClassesThat().belongToAnyOf(DeviceConfig.OpcUa.class, DeviceConfig.Mqtt.class)
                .as("only a device kind looks at its own configuration variant");
    }

    static ArchRule genericWiringKnowsNoConcreteConnector() {
        return noClasses().that().resideInAPackage("io.qubiq.app..")
                .and().doNotImplement(DeviceKind.class)
                .and().doNotHaveFullyQualifiedName(OPCUA_CERTIFICATES)
                .and().doNotHaveFullyQualifiedName(MqttDeviceMessages.class.getName())
                .should().dependOnClassesThat().belongToAnyOf(OpcUaConnector.class, MqttConnector.class)
                .as("the application builds connectors through their kinds and asks no connector for its class");
    }

    @Test
    void onlyTheRegistryNamesTheDeviceKinds() {
        onlyTheRegistryKnowsTheKinds().check(production);
    }

    @Test
    void onlyEachKindLooksAtItsOwnSectionVariant() {
        onlyTheKindsLookAtTheSectionVariants().check(production);
    }

    @Test
    void onlyTheKindsAndTheirProtocolsOwnFeaturesKnowTheConcreteConnectors() {
        genericWiringKnowsNoConcreteConnector().check(production);
    }

    @Test
    void connectorModulesKnowNeitherTheApplicationNorTheKindInterface() {
        noClasses().that().resideInAPackage("io.qubiq.connector..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qubiq.app..")
                .orShould().dependOnClassesThat().belongToAnyOf(DeviceKind.class)
                .as("a connector is a driver: the kind that wires it sits above it")
                .check(production);
    }

    @Test
    void theRulesCatchAClassThatDispatchesOnAKindOrAConnectorClass() {
        JavaClasses fixture = new ClassFileImporter().importClasses(KindDispatchFixture.class);

        assertThat(onlyTheKindsLookAtTheSectionVariants().evaluate(fixture).hasViolation()).isTrue();
        JavaClasses wiring = new ClassFileImporter().importClasses(ConnectorDispatchFixture.class);
        assertThat(wiring.get(ConnectorDispatchFixture.class).getPackageName()).startsWith("io.qubiq.app");
        assertThat(genericWiringKnowsNoConcreteConnector().evaluate(wiring).hasViolation()).isTrue();
    }

    /** What the rules forbid: wiring that tests which variant it was given. */
    static final class KindDispatchFixture {
        static String kindOf(DeviceConfig config) {
            return config instanceof DeviceConfig.OpcUa ? "opcua" : "other";
        }
    }

    /** What the rules forbid: wiring that tests which connector it was given. */
    static final class ConnectorDispatchFixture {
        static boolean hasCertificates(DeviceConnector connector) {
            return connector instanceof OpcUaConnector;
        }
    }
}
