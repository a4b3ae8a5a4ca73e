package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.event.AuditAction;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminBootstrapTest {

    @TempDir
    Path dir;

    static String token(String announcement) {
        return announcement.substring(announcement.lastIndexOf(' ') + 1);
    }

    @Test
    void configuredPasswordCreatesTheAdministratorAndNoTokenIsIssued() throws Exception {
        AuthFixture f = new AuthFixture(dir);

        assertThat(f.auth.bootstrap().start(Optional.of("configured-owner-pw"))).isEqualTo(AdminBootstrap.State.ADMIN_CREATED);

        assertThat(f.auth.users().find("admin").orElseThrow().roles()).containsExactly("admin");
        assertThat(f.auth.users().check("admin", "configured-owner-pw").outcome()).isEqualTo(UserStore.Outcome.OK);
        assertThat(f.announcements).isEmpty();
        assertThat(f.auth.bootstrap().setupPending()).isFalse();
        assertThat(f.events.of(AuditAction.USER_CREATE)).singleElement()
                .satisfies(e -> assertThat(e.user()).isEqualTo("system"));
    }

    @Test
    void withoutAPasswordNobodyCanSignInUntilTheSetupTokenIsClaimed() throws Exception {
        AuthFixture f = new AuthFixture(dir);

        assertThat(f.auth.bootstrap().start(Optional.empty())).isEqualTo(AdminBootstrap.State.AWAITING_SETUP);

        assertThat(f.auth.users().isEmpty()).isTrue();
        for (String guess : new String[] {"admin", "password", "qubiq", ""}) {
            assertThat(f.auth.signIn().signIn("admin", guess, "10.0.0.9")).isInstanceOf(SignInResult.Refused.class);
        }
        assertThat(f.announcements).singleElement().asString().contains("one-time setup token");
    }

    @Test
    void setupTokenHasAtLeast128BitsAndIsKeptOnlyAsAHash() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.auth.bootstrap().start(Optional.empty());

        String token = token(f.announcements.get(0));

        assertThat(token).startsWith("setup_").hasSize(6 + 27);
        assertThat(java.nio.file.Files.list(dir)).isEmpty();
    }

    @Test
    void setupTokenCreatesTheFirstAdministratorOnceOnly() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.auth.bootstrap().start(Optional.empty());
        String token = token(f.announcements.get(0));

        UserAccount admin = f.auth.bootstrap().claimSetup(token, "Ada", "first-owner-passphrase", "10.0.0.9");

        assertThat(admin.name()).isEqualTo("ada");
        assertThat(admin.roles()).containsExactly("admin");
        assertThat(f.auth.bootstrap().setupPending()).isFalse();
        assertThatThrownBy(() -> f.auth.bootstrap().claimSetup(token, "eve", "second-owner-passphrase", "10.0.0.66"))
                .isInstanceOf(SetupRefusedException.class);
        assertThat(f.auth.users().list()).extracting(UserAccount::name).containsExactly("ada");
    }

    @Test
    void expiredSetupTokenIsRefused() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.auth.bootstrap().start(Optional.empty());
        String token = token(f.announcements.get(0));

        f.clock.advance(Duration.ofHours(1));

        assertThat(f.auth.bootstrap().setupPending()).isFalse();
        assertThatThrownBy(() -> f.auth.bootstrap().claimSetup(token, "ada", "first-owner-passphrase", "10.0.0.9"))
                .isInstanceOf(SetupRefusedException.class).hasMessageContaining("expired");
        assertThat(f.auth.users().isEmpty()).isTrue();
    }

    @Test
    void wrongSetupTokenIsRefusedAndTheRightOneStillWorks() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.auth.bootstrap().start(Optional.empty());
        String token = token(f.announcements.get(0));

        assertThatThrownBy(() -> f.auth.bootstrap().claimSetup(token + "x", "eve", "evil-owner-passphrase", "10.0.0.66"))
                .isInstanceOf(SetupRefusedException.class).hasMessage("wrong setup token");
        assertThatThrownBy(() -> f.auth.bootstrap().claimSetup(token, "ada", "short", "10.0.0.9"))
                .isInstanceOf(PasswordRejectedException.class);

        assertThat(f.auth.bootstrap().claimSetup(token, "ada", "first-owner-passphrase", "10.0.0.9").name())
                .isEqualTo("ada");
    }

    @Test
    void existingUsersAreNeverTouchedByAConfiguredPassword() throws Exception {
        AuthFixture first = new AuthFixture(dir);
        first.auth.bootstrap().start(Optional.of("configured-owner-pw"));

        AuthFixture restarted = new AuthFixture(dir);
        assertThat(restarted.auth.bootstrap().start(Optional.of("another-password"))).isEqualTo(AdminBootstrap.State.USERS_EXIST);

        assertThat(restarted.auth.users().check("admin", "configured-owner-pw").outcome()).isEqualTo(UserStore.Outcome.OK);
        assertThat(restarted.auth.users().check("admin", "another-password").outcome())
                .isEqualTo(UserStore.Outcome.WRONG_PASSWORD);
        assertThat(restarted.announcements).isEmpty();
    }
}
