package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every security-relevant action reaches the audit journal with who, when, what, target, outcome and from. */
class AuditEventsTest {

    static final String FROM = "192.168.7.20";

    @TempDir
    Path dir;

    AuthFixture f;
    Principal alice;

    @BeforeEach
    void users() throws Exception {
        f = new AuthFixture(dir);
        f.user("alice", "admin");
        alice = f.signIn("alice");
        f.events.audits.clear();
    }

    private AuditEvent only(AuditAction action) {
        List<AuditEvent> events = f.events.of(action);
        assertThat(events).as(action.name()).hasSize(1);
        AuditEvent event = events.get(0);
        assertThat(event.at()).isEqualTo(f.clock.instant());
        return event;
    }

    @Test
    void signInIsAuditedWithTheRemoteAddress() {
        f.auth.signIn().signIn("alice", AuthFixture.password("alice"), FROM);

        AuditEvent event = only(AuditAction.SIGN_IN);
        assertThat(event.user()).isEqualTo("alice");
        assertThat(event.target()).isEqualTo("user/alice");
        assertThat(event.outcome()).isEqualTo("signed in");
        assertThat(event.details()).containsEntry(AuditAction.DETAIL_FROM, FROM).containsKey("session");
    }

    @Test
    void failedSignInIsAuditedWithItsTrueReasonButNoPassword() {
        f.auth.signIn().signIn("alice", "guessed-password", FROM);
        f.auth.signIn().signIn("nobody", "guessed-password", FROM);

        assertThat(f.events.of(AuditAction.SIGN_IN_FAILED)).extracting(AuditEvent::user, AuditEvent::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("alice", "wrong password"),
                        org.assertj.core.groups.Tuple.tuple("nobody", "unknown user"));
        assertThat(f.events.audits.toString()).doesNotContain("guessed-password");
    }

    @Test
    void throttledSignInIsAuditedAndChecksNoPassword() {
        for (int i = 0; i < 5; i++) {
            f.auth.signIn().signIn("alice", "guess-" + i, FROM);
        }
        assertThat(f.events.of(AuditAction.SIGN_IN_FAILED)).as("the first refusal of the minute on its own")
                .singleElement().satisfies(e -> assertThat(e.outcome()).isEqualTo("wrong password"));

        SignInResult result = f.auth.signIn().signIn("alice", AuthFixture.password("alice"), FROM);

        assertThat(result).isEqualTo(new SignInResult.Refused(Duration.ofSeconds(1), true));
        f.clock.advance(Duration.ofMinutes(1));
        f.auth.signIn().flushRefusals();
        AuditEvent summary = f.events.last();
        assertThat(summary.action()).isEqualTo(AuditAction.SIGN_IN_FAILED);
        assertThat(summary.outcome()).startsWith("6 refused sign-ins for alice from " + FROM + " between ");
        assertThat(summary.details()).containsEntry("count", "6").containsEntry("journaled_separately", "1")
                .containsEntry("reasons", "wrong password: 5; throttled: 1");
        assertThat(f.auth.signIn().signIn("alice", AuthFixture.password("alice"), FROM))
                .isInstanceOf(SignInResult.SignedIn.class);
    }

    @Test
    void signOutIsAuditedOnceForALiveSession() {
        String id = f.sessionIds.get(alice.credentialId());

        assertThat(f.auth.signIn().signOut(id, FROM)).isTrue();
        assertThat(f.auth.signIn().signOut(id, FROM)).isFalse();

        AuditEvent event = only(AuditAction.SIGN_OUT);
        assertThat(event.user()).isEqualTo("alice");
        assertThat(event.details()).containsEntry(AuditAction.DETAIL_FROM, FROM);
    }

    @Test
    void everyUserManagementActionIsAudited() {
        UserAdministration admin = f.auth.administration();
        admin.createUser(alice, FROM, "olga", "silver-lantern-1", List.of("viewer"));
        admin.setRoles(alice, FROM, "olga", List.of("operator"));
        admin.setPassword(alice, FROM, "olga", "silver-lantern-2");
        admin.setDisabled(alice, FROM, "olga", true);
        admin.setDisabled(alice, FROM, "olga", false);
        admin.deleteUser(alice, FROM, "olga");

        assertThat(f.events.audits).extracting(AuditEvent::action, AuditEvent::target, AuditEvent::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(AuditAction.USER_CREATE, "user/olga", "created"),
                        org.assertj.core.groups.Tuple.tuple(AuditAction.USER_ROLES_CHANGE, "user/olga", "roles set"),
                        org.assertj.core.groups.Tuple.tuple(AuditAction.USER_PASSWORD_CHANGE, "user/olga", "password set"),
                        org.assertj.core.groups.Tuple.tuple(AuditAction.USER_DISABLE, "user/olga", "disabled"),
                        org.assertj.core.groups.Tuple.tuple(AuditAction.USER_ENABLE, "user/olga", "enabled"),
                        org.assertj.core.groups.Tuple.tuple(AuditAction.USER_DELETE, "user/olga", "deleted"));
        assertThat(f.events.audits).allSatisfy(e -> {
            assertThat(e.user()).isEqualTo("alice");
            assertThat(e.details()).containsEntry(AuditAction.DETAIL_FROM, FROM).containsEntry("via", "session");
        });
        assertThat(f.events.audits.toString()).doesNotContain("silver-lantern");
    }

    @Test
    void refusedManagementActionIsAuditedWithTheReason() {
        assertThatThrownBy(() -> f.auth.administration().deleteUser(alice, FROM, "alice"))
                .isInstanceOf(LastAdminException.class);

        assertThat(only(AuditAction.USER_DELETE).outcome()).startsWith("refused: cannot delete the last enabled user");
    }

    @Test
    void tokenCreationAndRevocationAreAuditedWithoutTheSecret() {
        ApiTokens.Created created = f.auth.administration().createToken(alice, FROM, "alice", "backup job",
                Optional.empty());
        f.auth.administration().revokeToken(alice, FROM, created.token().id());

        assertThat(only(AuditAction.API_TOKEN_CREATE).target()).isEqualTo("token/" + created.token().id());
        assertThat(only(AuditAction.API_TOKEN_REVOKE).outcome()).isEqualTo("revoked");
        assertThat(f.events.audits.toString()).doesNotContain(created.secret().substring(4));
    }

    @Test
    void actionThroughAnApiTokenNamesTheToken() {
        ApiTokens.Created created = f.auth.tokens().create("alice", "automation", Optional.empty());
        Principal viaToken = f.auth.authenticator().fromBearer("Bearer " + created.secret()).orElseThrow();

        f.auth.administration().createUser(viaToken, FROM, "bot", "copper-kettle-123", List.of("viewer"));

        assertThat(only(AuditAction.USER_CREATE).details()).containsEntry("via", "token " + created.token().id());
    }

    @Test
    void setupClaimIsAuditedBothWhenRefusedAndWhenItSucceeds() throws Exception {
        AuthFixture fresh = new AuthFixture(dir.resolve("fresh"));
        fresh.auth.bootstrap().start(Optional.empty());
        String announcement = fresh.announcements.get(0);
        String token = announcement.substring(announcement.lastIndexOf(' ') + 1);

        assertThatThrownBy(() -> fresh.auth.bootstrap().claimSetup("setup_wrong", "eve", "rusty-compass-12", "10.9.9.9"))
                .isInstanceOf(SetupRefusedException.class);
        fresh.auth.bootstrap().claimSetup(token, "ada", "amber-meadow-12", FROM);

        assertThat(fresh.events.of(AuditAction.SETUP_CLAIM)).extracting(AuditEvent::user, AuditEvent::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("eve", "refused: wrong setup token"),
                        org.assertj.core.groups.Tuple.tuple("ada", "first administrator created"));
        assertThat(fresh.events.audits.toString()).doesNotContain(token);
    }
}
