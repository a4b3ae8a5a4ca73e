package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserAdministrationTest {

    static final String FROM = AuthFixture.FROM;

    @TempDir
    Path dir;

    AuthFixture f;
    UserAdministration admin;
    Principal alice;
    Principal olga;

    @BeforeEach
    void users() throws Exception {
        f = new AuthFixture(dir);
        f.user("alice", "admin");
        f.user("olga", "operator");
        admin = f.auth.administration();
        alice = f.signIn("alice");
        olga = f.signIn("olga");
    }

    @Test
    void onlyUserManagersManageOtherUsers() {
        assertThatThrownBy(() -> admin.createUser(olga, FROM, "mallory", "intruder-password", List.of("admin")))
                .isInstanceOf(NotPermittedException.class).hasMessageContaining("Manage users");
        assertThatThrownBy(() -> admin.setRoles(olga, FROM, "olga", List.of("admin")))
                .isInstanceOf(NotPermittedException.class);
        assertThatThrownBy(() -> admin.listUsers(olga)).isInstanceOf(NotPermittedException.class);
        assertThat(f.auth.users().find("mallory")).isEmpty();

        admin.createUser(alice, FROM, "eng", "workshop-password", List.of("engineer"));
        assertThat(admin.listUsers(alice)).extracting(UserAccount::name).containsExactly("alice", "olga", "eng");
    }

    @Test
    void passwordSetByAnAdministratorEndsAllTheUsersSessions() {
        admin.setPassword(alice, FROM, "olga", "a-new-password-for-her");

        assertThat(f.auth.authenticator().fromSession(sessionIdOf(olga))).isEmpty();
        assertThat(f.auth.users().check("olga", "a-new-password-for-her").outcome()).isEqualTo(UserStore.Outcome.OK);
    }

    @Test
    void ownPasswordChangeNeedsTheCurrentPasswordAndKeepsOnlyTheCurrentSession() {
        SignInResult.SignedIn other = (SignInResult.SignedIn) f.auth.signIn().signIn("olga",
                AuthFixture.password("olga"), "10.0.0.8");
        String current = sessionIdOf(olga);

        assertThatThrownBy(() -> admin.changeOwnPassword(olga, FROM, "wrong-current-pw", "a-new-password-for-her"))
                .isInstanceOf(NotPermittedException.class);
        admin.changeOwnPassword(olga, FROM, AuthFixture.password("olga"), "a-new-password-for-her");

        assertThat(f.auth.authenticator().fromSession(current)).isPresent();
        assertThat(f.auth.authenticator().fromSession(other.session().id())).isEmpty();
    }

    @Test
    void disablingAUserEndsTheirSessionsAndDeletingAlsoRevokesTheirTokens() {
        ApiTokens.Created token = admin.createToken(olga, FROM, "olga", "script", Optional.empty());

        admin.setDisabled(alice, FROM, "olga", true);
        assertThat(f.auth.authenticator().fromSession(sessionIdOf(olga))).isEmpty();

        admin.deleteUser(alice, FROM, "olga");
        assertThat(f.auth.tokens().list()).isEmpty();
        assertThat(f.auth.authenticator().fromBearer("Bearer " + token.secret())).isEmpty();
    }

    @Test
    void usersManageTheirOwnTokensButNotOthers() {
        ApiTokens.Created mine = admin.createToken(olga, FROM, "olga", "script", Optional.empty());
        ApiTokens.Created alices = admin.createToken(alice, FROM, "alice", "backup", Optional.empty());

        assertThatThrownBy(() -> admin.createToken(olga, FROM, "alice", "sneaky", Optional.empty()))
                .isInstanceOf(NotPermittedException.class);
        assertThatThrownBy(() -> admin.revokeToken(olga, FROM, alices.token().id())).isInstanceOf(NotPermittedException.class);
        assertThatThrownBy(() -> admin.listTokens(olga, "alice")).isInstanceOf(NotPermittedException.class);
        assertThat(admin.listTokens(olga, "olga")).extracting(ApiToken::id).containsExactly(mine.token().id());

        admin.revokeToken(alice, FROM, mine.token().id());
        assertThat(admin.listTokens(olga, "olga")).isEmpty();
    }

    @Test
    void aRequestAuthenticatedByAnApiTokenCannotCreateTokens() {
        ApiTokens.Created shortLived = admin.createToken(olga, FROM, "olga", "script",
                Optional.of(f.clock.instant().plusSeconds(3600)));
        Principal viaToken = f.auth.authenticator().fromBearer("Bearer " + shortLived.secret()).orElseThrow();

        // would catch: a stolen short-lived token minting a never-expiring one that outlives its revocation
        assertThatThrownBy(() -> admin.createToken(viaToken, FROM, "olga", "forever", Optional.empty()))
                .isInstanceOf(NotPermittedException.class).hasMessageContaining("sign in");
        assertThat(f.auth.tokens().listOf("olga")).extracting(ApiToken::id).containsExactly(shortLived.token().id());
        assertThat(f.events.audits).last().satisfies(e -> assertThat(e.outcome()).startsWith("refused: "));
    }

    @Test
    void passwordSetByAnAdministratorRevokesTheUsersApiTokens() {
        ApiTokens.Created olgas = admin.createToken(olga, FROM, "olga", "script", Optional.empty());
        ApiTokens.Created alices = admin.createToken(alice, FROM, "alice", "backup", Optional.empty());

        admin.setPassword(alice, FROM, "olga", "a-new-password-for-her");

        assertThat(f.auth.authenticator().fromBearer("Bearer " + olgas.secret())).isEmpty();
        assertThat(f.auth.tokens().listOf("olga")).isEmpty();
        assertThat(f.auth.authenticator().fromBearer("Bearer " + alices.secret())).as("other users' tokens").isPresent();
    }

    @Test
    void ownPasswordChangeRevokesTheUsersOtherApiTokensButNotTheOneItWasMadeWith() {
        ApiTokens.Created first = admin.createToken(olga, FROM, "olga", "first", Optional.empty());
        ApiTokens.Created second = admin.createToken(olga, FROM, "olga", "second", Optional.empty());

        admin.changeOwnPassword(olga, FROM, AuthFixture.password("olga"), "a-new-password-for-her");
        assertThat(f.auth.tokens().listOf("olga")).as("changed from a session: every token goes").isEmpty();

        ApiTokens.Created third = admin.createToken(olga, FROM, "olga", "third", Optional.empty());
        ApiTokens.Created fourth = admin.createToken(olga, FROM, "olga", "fourth", Optional.empty());
        Principal viaThird = f.auth.authenticator().fromBearer("Bearer " + third.secret()).orElseThrow();
        admin.changeOwnPassword(viaThird, FROM, "a-new-password-for-her", "yet-another-phrase-for-her");

        assertThat(f.auth.tokens().listOf("olga")).extracting(ApiToken::id).containsExactly(third.token().id());
        assertThat(f.auth.authenticator().fromBearer("Bearer " + fourth.secret())).isEmpty();
        assertThat(first.token().id()).isNotEqualTo(second.token().id());
    }

    @Test
    void guessesAtTheCurrentPasswordAreThrottledBeforeAnyHashing() {
        int free = AuthConfig.defaults().signInFreeFailures();
        for (int i = 0; i < free; i++) {
            assertThatThrownBy(() -> admin.changeOwnPassword(olga, FROM, "wrong-current-pw", "a-new-password-for-her"))
                    .isInstanceOf(NotPermittedException.class);
        }
        long hashedBefore = f.hasher.verifications();

        assertThatThrownBy(() -> admin.changeOwnPassword(olga, FROM, AuthFixture.password("olga"),
                "a-new-password-for-her")).isInstanceOf(ThrottledException.class)
                .hasMessageContaining("try again in")
                .satisfies(e -> assertThat(((ThrottledException) e).retryAfter()).isPositive());
        assertThat(f.hasher.verifications()).as("a throttled guess is not checked").isEqualTo(hashedBefore);
        assertThat(f.auth.users().check("olga", AuthFixture.password("olga")).outcome()).isEqualTo(UserStore.Outcome.OK);
        assertThat(f.events.audits).last().satisfies(e -> assertThat(e.outcome()).contains("throttled"));

        f.clock.advance(java.time.Duration.ofMillis(AuthConfig.defaults().signInBaseDelayMs()));
        admin.changeOwnPassword(olga, FROM, AuthFixture.password("olga"), "a-new-password-for-her");
        assertThat(f.auth.users().check("olga", "a-new-password-for-her").outcome()).isEqualTo(UserStore.Outcome.OK);
    }

    @Test
    void lastAdministratorCannotDisableOrDeleteThemselves() {
        assertThatThrownBy(() -> admin.deleteUser(alice, FROM, "alice")).isInstanceOf(LastAdminException.class);
        assertThatThrownBy(() -> admin.setDisabled(alice, FROM, "alice", true)).isInstanceOf(LastAdminException.class);
        assertThat(f.auth.authenticator().fromSession(sessionIdOf(alice))).isPresent();
    }

    /** The session id behind a principal the fixture signed in. */
    private String sessionIdOf(Principal principal) {
        return f.sessionIds.get(principal.credentialId());
    }
}
