package io.qubiq.storeforward;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins how the roles of a channel depend on each other (issue 21: the channel, the forwarder and the
 * quarantine talk through a small context instead of each other). {@link StoreForwardChannel} is the
 * public face; its roles share {@link ChannelParts}, and the forwarder, its hand-off side and the
 * quarantine see the channel only through {@link ForwarderContext}, {@link HandOffContext} and
 * {@link Quarantine.Requeue}.
 */
class ChannelRolesTest {

    private static final String CHANNEL = "io\\.qubiq\\.storeforward\\.StoreForwardChannel";

    static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.qubiq.storeforward");
    }

    /**
     * Only the channel and its builder name the channel class; its nested public types (the openers,
     * {@link StoreForwardChannel.StorageSwap}) are vocabulary of its API, which its roles may use.
     */
    @Test
    void noClassButTheChannelAndItsBuilderRefersToTheChannel() {
        noClasses().that().resideInAPackage("io.qubiq.storeforward..")
                .and().haveNameNotMatching(CHANNEL + "(\\$.*)?")
                .and().doNotHaveFullyQualifiedName(ChannelBuilder.class.getName())
                .should().dependOnClassesThat().haveNameMatching(CHANNEL)
                .as("only StoreForwardChannel and ChannelBuilder refer to StoreForwardChannel")
                .check(production);
    }

    @Test
    void theForwarderItsHandOffSideAndTheQuarantineSeeTheChannelOnlyThroughTheirContexts() {
        noClasses().that()
                .haveNameMatching("io\\.qubiq\\.storeforward\\.(Forwarder|HandOffDelivery|Quarantine)(\\$.*)?")
                .should().dependOnClassesThat().haveNameMatching(
                        "io\\.qubiq\\.storeforward\\.(StoreForwardChannel|ChannelParts|ForwarderSide|SubmitPath"
                                + "|LiveReconfiguration)(\\$.*)?")
                .as("Forwarder, HandOffDelivery and Quarantine reach the channel only through ForwarderContext,"
                        + " HandOffContext and Quarantine.Requeue")
                .check(production);
    }

    @Test
    void theSubmitPathAndTheLiveReconfigurationTalkOnlyThroughTheChannelsParts() {
        String submitPath = "io\\.qubiq\\.storeforward\\.SubmitPath(\\$.*)?";
        String reconfiguration = "io\\.qubiq\\.storeforward\\.LiveReconfiguration(\\$.*)?";
        noClasses().that().haveNameMatching(submitPath)
                .should().dependOnClassesThat().haveNameMatching(reconfiguration)
                .check(production);
        noClasses().that().haveNameMatching(reconfiguration)
                .should().dependOnClassesThat().haveNameMatching(submitPath)
                .check(production);
    }
}
