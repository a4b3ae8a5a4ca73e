package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthenticatorTest {

    @TempDir
    Path dir;

    AuthFixture f;
    Authenticator authenticator;

    @BeforeEach
    void users() throws Exception {
        f = new AuthFixture(dir);
        f.user("alice", "admin");
        f.user("olga", "operator");
        authenticator = f.auth.authenticator();
    }

    @Test
    void signedInSessionResolvesToTheUserWithTheirRolesPermissions() {
        SignInResult.SignedIn signedIn = (SignInResult.SignedIn) f.auth.signIn().signIn("olga",
                AuthFixture.password("olga"), AuthFixture.FROM);

        Principal principal = authenticator.fromSession(signedIn.session().id()).orElseThrow();

        assertThat(principal.user()).isEqualTo("olga");
        assertThat(principal.via()).isEqualTo(Principal.Via.SESSION);
        assertThat(principal.permissions()).isEqualTo(Role.OPERATOR.permissions());
        assertThat(authenticator.require(Optional.of(principal), Permission.WRITE_TAGS).allowed()).isTrue();
        assertThat(authenticator.require(Optional.of(principal), Permission.EDIT_CONNECTIONS))
                .isEqualTo(AccessDecision.deny("olga lacks the permission \"Edit connections\""));
    }

    @Test
    void wrongPasswordGivesNoSession() {
        SignInResult result = f.auth.signIn().signIn("olga", "not-her-password", AuthFixture.FROM);

        assertThat(result).isEqualTo(new SignInResult.Refused(Duration.ZERO, false));
        assertThat(f.auth.sessions().count()).isZero();
    }

    @Test
    void roleChangeAppliesToTheNextRequest() {
        Principal before = f.signIn("olga");
        String sessionKey = before.credentialId();
        SignInResult.SignedIn again = (SignInResult.SignedIn) f.auth.signIn().signIn("olga",
                AuthFixture.password("olga"), AuthFixture.FROM);

        f.auth.users().setRoles("olga", List.of("viewer"));

        Principal after = authenticator.fromSession(again.session().id()).orElseThrow();
        assertThat(after.has(Permission.WRITE_TAGS)).isFalse();
        assertThat(sessionKey).isNotEqualTo(after.credentialId());
    }

    @Test
    void bearerTokenResolvesToItsOwner() {
        ApiTokens.Created created = f.auth.tokens().create("olga", "script", Optional.empty());

        Principal principal = authenticator.fromBearer("Bearer " + created.secret()).orElseThrow();

        assertThat(principal.user()).isEqualTo("olga");
        assertThat(principal.via()).isEqualTo(Principal.Via.API_TOKEN);
        assertThat(principal.credentialId()).isEqualTo(created.token().id());
        assertThat(authenticator.fromBearer("bearer " + created.secret())).isPresent();
        assertThat(authenticator.fromBearer("Basic " + created.secret())).isEmpty();
        assertThat(authenticator.fromBearer(created.secret())).isEmpty();
        assertThat(authenticator.fromBearer(null)).isEmpty();
    }

    @Test
    void sessionOfADisabledOrDeletedUserNoLongerResolves() {
        SignInResult.SignedIn olga = (SignInResult.SignedIn) f.auth.signIn().signIn("olga",
                AuthFixture.password("olga"), AuthFixture.FROM);

        f.auth.users().setDisabled("olga", true);

        assertThat(authenticator.fromSession(olga.session().id())).isEmpty();
        f.auth.users().setDisabled("olga", false);
        assertThat(authenticator.fromSession(olga.session().id())).as("the session was ended, not suspended").isEmpty();
    }

    @Test
    void csrfCheckNeedsTheTokenOfThatVerySession() {
        SignInResult.SignedIn a = (SignInResult.SignedIn) f.auth.signIn().signIn("alice",
                AuthFixture.password("alice"), AuthFixture.FROM);
        SignInResult.SignedIn o = (SignInResult.SignedIn) f.auth.signIn().signIn("olga",
                AuthFixture.password("olga"), AuthFixture.FROM);

        assertThat(authenticator.csrfMatches(a.session().id(), a.session().csrfToken())).isTrue();
        assertThat(authenticator.csrfMatches(a.session().id(), o.session().csrfToken())).isFalse();
        assertThat(authenticator.csrfMatches(null, a.session().csrfToken())).isFalse();
    }

    @Test
    void garbageCredentialsResolveToNobody() {
        assertThat(authenticator.fromSession(null)).isEmpty();
        assertThat(authenticator.fromSession("")).isEmpty();
        assertThat(authenticator.fromSession("x".repeat(10_000))).isEmpty();
        assertThat(authenticator.fromSession(Secrets.random(32))).isEmpty();
    }
}
