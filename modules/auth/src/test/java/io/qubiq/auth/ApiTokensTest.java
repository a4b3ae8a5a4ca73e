package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiTokensTest {

    @TempDir
    Path dir;

    AuthFixture f;
    ApiTokens tokens;

    @BeforeEach
    void users() throws Exception {
        f = new AuthFixture(dir);
        f.user("alice", "admin");
        f.user("exporter", "viewer");
        tokens = f.auth.tokens();
    }

    @Test
    void secretIsShownOnceAndOnlyItsHashIsStored() throws Exception {
        ApiTokens.Created created = tokens.create("exporter", "historian export", Optional.empty());

        assertThat(created.secret()).startsWith("qbq_").hasSize(4 + 43);
        assertThat(created.toString()).doesNotContain(created.secret());
        assertThat(tokens.listOf("exporter")).singleElement().satisfies(t -> {
            assertThat(t.id()).startsWith("tk_");
            assertThat(t.toString()).doesNotContain(created.secret().substring(4));
        });
        String file = Files.readString(dir.resolve("api-tokens.properties"));
        assertThat(file).doesNotContain(created.secret().substring(4)).contains(Secrets.sha256(created.secret()));
    }

    @Test
    void secretAuthenticatesAsItsOwnerAcrossARestart() throws Exception {
        ApiTokens.Created created = tokens.create("exporter", "historian export", Optional.empty());

        ApiTokens reopened = ApiTokens.open(dir, f.auth.users(), f.clock);

        assertThat(reopened.authenticate(created.secret())).map(ApiToken::owner).contains("exporter");
        assertThat(reopened.authenticate(created.secret() + "x")).isEmpty();
        assertThat(reopened.authenticate("qbq_" + Secrets.random(32))).isEmpty();
        assertThat(reopened.authenticate("not-a-token")).isEmpty();
    }

    @Test
    void revokedTokenIsRejectedAtOnce() {
        ApiTokens.Created created = tokens.create("exporter", "historian export", Optional.empty());

        tokens.revoke(created.token().id());

        assertThat(tokens.authenticate(created.secret())).isEmpty();
        assertThat(tokens.listOf("exporter")).isEmpty();
        assertThatThrownBy(() -> tokens.revoke(created.token().id())).isInstanceOf(TokenNotFoundException.class);
    }

    @Test
    void tokenOfADisabledUserIsRejectedUntilTheUserIsEnabledAgain() {
        ApiTokens.Created created = tokens.create("exporter", "historian export", Optional.empty());

        f.auth.users().setDisabled("exporter", true);
        assertThat(tokens.authenticate(created.secret())).isEmpty();

        f.auth.users().setDisabled("exporter", false);
        assertThat(tokens.authenticate(created.secret())).isPresent();
    }

    @Test
    void tokenOfADeletedUserIsRejected() {
        ApiTokens.Created created = tokens.create("exporter", "historian export", Optional.empty());

        f.auth.users().delete("exporter");

        assertThat(tokens.authenticate(created.secret())).isEmpty();
    }

    @Test
    void tokenOfADeletedUserDoesNotComeBackWhenTheNameIsReused() {
        ApiTokens.Created created = tokens.create("exporter", "historian export", Optional.empty());
        f.auth.users().delete("exporter");
        f.clock.advance(Duration.ofSeconds(1));

        f.user("exporter", "admin");

        assertThat(tokens.authenticate(created.secret())).isEmpty();
    }

    @Test
    void expiredTokenIsRejected() {
        ApiTokens.Created created = tokens.create("exporter", "nightly", Optional.of(f.clock.instant().plus(Duration.ofDays(1))));

        assertThat(tokens.authenticate(created.secret())).isPresent();
        f.clock.advance(Duration.ofDays(1));
        assertThat(tokens.authenticate(created.secret())).isEmpty();
    }

    @Test
    void lastUseIsRecordedDurablyAtMostOnceAMinute() throws Exception {
        ApiTokens.Created created = tokens.create("exporter", "historian export", Optional.empty());
        tokens.authenticate(created.secret());
        java.time.Instant firstUse = f.clock.instant();
        f.clock.advance(Duration.ofSeconds(30));
        tokens.authenticate(created.secret());

        assertThat(ApiTokens.open(dir, f.auth.users(), f.clock).find(created.token().id()).orElseThrow().lastUsed())
                .contains(firstUse);
        f.clock.advance(Duration.ofSeconds(30));
        tokens.authenticate(created.secret());
        assertThat(ApiTokens.open(dir, f.auth.users(), f.clock).find(created.token().id()).orElseThrow().lastUsed())
                .contains(f.clock.instant());
    }

    @Test
    void tokenForAMissingUserOrWithoutANameIsRefused() {
        assertThatThrownBy(() -> tokens.create("nobody", "x", Optional.empty())).isInstanceOf(UserNotFoundException.class);
        assertThatThrownBy(() -> tokens.create("exporter", " ", Optional.empty())).isInstanceOf(InvalidNameException.class);
    }

    @Test
    void damagedTokenFileIsRefusedByOpenNamingTheFile() throws Exception {
        tokens.create("exporter", "historian export", Optional.empty());
        Path file = dir.resolve("api-tokens.properties");
        Files.writeString(file, Files.readString(file).replace("owner=exporter", "owner=alice"));

        assertThatThrownBy(() -> ApiTokens.open(dir, f.auth.users(), f.clock))
                .isInstanceOf(CorruptStoreException.class).hasMessageContaining(file.toString());
    }
}
