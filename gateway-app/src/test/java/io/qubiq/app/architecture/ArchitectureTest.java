package io.qubiq.app.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fails the build when a module uses a package that docs/ARCHITECTURE.md does not allow it
 * (dependencies point inward; only the application knows every concrete class).
 */
class ArchitectureTest {

    static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.qubiq");
    }

    static ArchRule moduleRule(String module, List<String> allowed) {
        List<String> packages = new ArrayList<>(allowed);
        packages.add(module + "..");
        packages.add("javax.."); // the JDK's own javax packages (javax.net.ssl, ...) count as JDK
        return classes().that().resideInAPackage(module + "..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(packages.toArray(String[]::new))
                .as(module + " depends only on " + allowed + " (docs/ARCHITECTURE.md)");
    }

    @Test
    void everyModuleDependsOnlyOnWhatTheArchitectureAllows() {
        List<String> violations = new ArrayList<>();
        for (Map.Entry<String, List<String>> module : ModuleRules.ALLOWED.entrySet()) {
            assertThat(production.stream().anyMatch(c -> c.getPackageName().startsWith(module.getKey())))
                    .as("classes of %s are on the test classpath", module.getKey()).isTrue();
            EvaluationResult result = moduleRule(module.getKey(), module.getValue()).evaluate(production);
            violations.addAll(result.getFailureReport().getDetails());
        }
        assertThat(violations).as("module dependency violations").isEmpty();
    }

    @Test
    void onlyTheApplicationUsesTheApplicationPackage() {
        noClasses().that().resideOutsideOfPackage("io.qubiq.app..")
                .should().dependOnClassesThat().resideInAPackage("io.qubiq.app..")
                .check(production);
    }

    /**
     * Inside the store-and-forward package the channel owns its forwarder and its quarantine service
     * and hands them what they need (a small context, a requeue callback); they never reach back into
     * the channel, so the dependencies between the three point one way.
     */
    @Test
    void theForwarderAndTheQuarantineDoNotDependOnTheirChannel() {
        noClasses().that().haveNameMatching("io\\.qubiq\\.storeforward\\.(Forwarder|Quarantine)(\\$.*)?")
                .should().dependOnClassesThat()
                .haveNameMatching("io\\.qubiq\\.storeforward\\.StoreForwardChannel(\\$.*)?")
                .as("Forwarder and Quarantine do not depend on StoreForwardChannel (docs/ARCHITECTURE.md)")
                .check(production);
    }

    /**
     * The application answers the console with typed failures ({@code RequestFailure}); HTTP statuses
     * and the error body are the console's (issue 21).
     */
    static ArchRule httpStaysInTheConsole() {
        return noClasses().that().resideInAPackage("io.qubiq.app..")
                .should().dependOnClassesThat().haveFullyQualifiedName("io.qubiq.console.ApiError")
                .orShould().dependOnClassesThat().resideInAPackage("io.javalin..")
                .as("the application chooses no HTTP status: it throws the console's RequestFailure kinds");
    }

    @Test
    void theApplicationChoosesNoHttpStatus() {
        httpStaysInTheConsole().check(production);
    }

    @Test
    void theHttpRuleCatchesAnApplicationClassThatChoosesAStatus() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.qubiq.app.archfixture");
        EvaluationResult result = httpStaysInTheConsole().evaluate(fixture);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("io.javalin.http.HttpStatus"));
    }

    @Test
    void theRuleCatchesAForbiddenDependency() {
        // A test-only class in the tag bus's package that reaches into the console: the rule must flag it.
        JavaClasses fixture = new ClassFileImporter().importPackages("io.qubiq.tagbus.archfixture");
        EvaluationResult result = moduleRule("io.qubiq.tagbus", ModuleRules.ALLOWED.get("io.qubiq.tagbus"))
                .evaluate(fixture);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("io.qubiq.console.HttpConfig"));
    }

    @Test
    void everyModuleOfTheRulesIsDescribedInTheArchitectureDocument() throws Exception {
        String doc = Files.readString(Path.of(System.getProperty("qubiq.repo", "..")).resolve("docs/ARCHITECTURE.md"));
        for (String module : ModuleRules.ALLOWED.keySet()) {
            assertThat(doc).as("docs/ARCHITECTURE.md mentions %s", module).contains("`" + module + "`");
        }
    }
}
