package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthConfigTest {

    @Test
    void sampleConfigurationParses() throws Exception {
        AuthConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-auth.yaml"), AuthConfig.class,
                Map.of("QUBIQ_ADMIN_PASSWORD", "from-the-environment"));

        assertThat(config.sessionIdleTimeoutMs()).isEqualTo(900_000);
        assertThat(config.sessionAbsoluteTimeoutMs()).isEqualTo(28_800_000);
        assertThat(config.passwordMinLength()).isEqualTo(14);
        assertThat(config.hashParameters()).isEqualTo(Argon2Parameters.RECOMMENDED);
        assertThat(config.signInFreeFailures()).isEqualTo(3);
        assertThat(config.adminUsername()).isEqualTo("plant-admin");
        assertThat(config.adminPassword()).contains("from-the-environment");
        assertThat(config.roles()).containsEntry("auditor", List.of(Permission.VIEW_AUDIT, Permission.VIEW_HISTORY))
                .containsKey("shift_lead");
    }

    @Test
    void emptySectionTakesTheDocumentedDefaults() throws Exception {
        assertThat(ConfigLoader.parse("empty.yaml", "", AuthConfig.class, Map.of())).isEqualTo(AuthConfig.defaults());
    }

    @Test
    void inconsistentKeysAreReportedTogetherWithoutPrintingTheSecret() {
        assertThatThrownBy(() -> ConfigLoader.parse("auth.yaml", """
                session_idle_timeout_ms: 3600000
                session_absolute_timeout_ms: 600000
                sign_in_base_delay_ms: 5000
                sign_in_max_delay_ms: 1000
                admin_username: "Bad Name"
                admin_password: tiny-secret
                roles:
                  admin: [view_tags]
                  Shift: [view_tags]
                """, AuthConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> {
                    assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath).contains(
                            "session_absolute_timeout_ms", "sign_in_max_delay_ms", "admin_username", "admin_password",
                            "roles.admin", "roles.Shift");
                    assertThat(e.getMessage()).doesNotContain("tiny-secret");
                });
    }

    @Test
    void unknownPermissionIsAConfigurationError() {
        assertThatThrownBy(() -> ConfigLoader.parse("auth.yaml", "roles:\n  x: [fly_drones]\n", AuthConfig.class,
                Map.of())).isInstanceOf(ConfigException.class).hasMessageContaining("view_connections");
    }

    @Test
    void configuredTimeoutsAndCustomRolesTakeEffect(@TempDir Path dir) throws Exception {
        AuthConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-auth.yaml"), AuthConfig.class,
                Map.of("QUBIQ_ADMIN_PASSWORD", "from-the-environment"));
        AuthFixture f = new AuthFixture(dir, config);
        f.auth.bootstrap().start(config.adminPassword());
        f.user("lead-1", "shift_lead");

        Principal lead = f.signIn("lead-1");
        assertThat(lead.has(Permission.EDIT_CONNECTIONS)).isTrue();
        assertThat(lead.has(Permission.VIEW_AUDIT)).isFalse();
        f.clock.advance(Duration.ofMinutes(15));
        assertThat(f.auth.authenticator().fromSession(f.sessionIds.get(lead.credentialId()))).isEmpty();
        assertThat(f.auth.users().find("plant-admin")).isPresent();
    }
}
