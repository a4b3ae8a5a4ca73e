package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PasswordPolicyTest {

    private final PasswordPolicy policy = new PasswordPolicy(12);

    @ParameterizedTest
    @ValueSource(strings = {"123456789012", "qwertyuiopas", "password1234", "Password1234", "PASSWORD1234",
            "welcome12345", "aaaaaaaaaaaa", "1qaz2wsx3edc", "administrator", "  qwertyuiopas  ", "changeme1234"})
    void aCommonPasswordIsRefusedWhateverItsCase(String common) {
        assertThat(policy.problem("alice", common)).hasValueSatisfying(problem -> assertThat(problem)
                .contains("common passwords").contains("choose a longer phrase"));
    }

    @Test
    void theListHoldsSomeThousandEntries() {
        assertThat(PasswordPolicy.commonCount()).isBetween(2_000, 20_000);
    }

    @Test
    void aPasswordThatIsOrContainsTheUserNameIsRefused() {
        assertThat(policy.problem("Alice", "alice-likes-long-words")).hasValueSatisfying(problem ->
                assertThat(problem).isEqualTo("a password must not contain the user name \"Alice\"; choose one without it"));
        assertThat(policy.problem("operator-7", "OPERATOR-7-OPERATOR-7")).isPresent();
        assertThat(new PasswordPolicy(2).problem("al", "al")).isPresent();
        assertThat(policy.problem("al", "always-a-long-phrase")).as("a two-letter name inside a word").isEmpty();
    }

    @Test
    void aLongUncommonPasswordWithoutTheNamePasses() {
        assertThat(policy.problem("alice", "violet-harbour-tractor")).isEmpty();
        assertThat(policy.problem("alice", "short")).contains("a password needs at least 12 characters; this one has 5");
    }

    @Test
    void everyPlaceThatSetsAPasswordAppliesTheRules(@TempDir Path dir) throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.user("alice", "admin");
        Principal alice = f.signIn("alice");
        UserAdministration admin = f.auth.administration();

        assertThatThrownBy(() -> admin.createUser(alice, AuthFixture.FROM, "bob", "password1234", List.of("viewer")))
                .isInstanceOf(PasswordRejectedException.class).hasMessageContaining("common passwords");
        assertThatThrownBy(() -> admin.createUser(alice, AuthFixture.FROM, "bob", "bob-the-builder-42", List.of()))
                .isInstanceOf(PasswordRejectedException.class).hasMessageContaining("user name \"bob\"");
        assertThat(f.auth.users().find("bob")).isEmpty();
        f.user("bob", "viewer");
        assertThatThrownBy(() -> admin.setPassword(alice, AuthFixture.FROM, "bob", "Welcome12345"))
                .isInstanceOf(PasswordRejectedException.class);
        assertThatThrownBy(() -> admin.changeOwnPassword(alice, AuthFixture.FROM, AuthFixture.password("alice"),
                "qwertyuiopas")).isInstanceOf(PasswordRejectedException.class);
        assertThatThrownBy(() -> AdminReset.run(AuthFixture.withRoles(Map.of()), dir.resolve("other"), "admin",
                "my-admin-password-9", f.clock)).isInstanceOf(PasswordRejectedException.class)
                .hasMessageContaining("user name \"admin\"");
    }

    @Test
    void theSetupClaimRefusesACommonPasswordAndKeepsTheToken(@TempDir Path dir) throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.auth.bootstrap().start(Optional.empty());
        String token = f.announcements.get(0).replaceAll("(?s).*(setup_\\S+).*", "$1");

        assertThatThrownBy(() -> f.auth.bootstrap().claimSetup(token, "ada", "123456789012", "10.0.0.9"))
                .isInstanceOf(PasswordRejectedException.class);
        assertThat(f.auth.bootstrap().setupPending()).isTrue();
    }

    @Test
    void aConfiguredAdminPasswordThatIsCommonOrHoldsTheNameIsAConfigurationError() {
        for (String bad : new String[] {"password1234", "plant-admin-password"}) {
            assertThatThrownBy(() -> ConfigLoader.parse("auth.yaml", "admin_username: plant-admin\nadmin_password: " + bad
                    + "\n", AuthConfig.class, Map.of())).isInstanceOf(ConfigException.class).satisfies(e -> {
                        assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                                .containsExactly("admin_password");
                        assertThat(e.getMessage()).doesNotContain(bad);
                    });
        }
    }
}
