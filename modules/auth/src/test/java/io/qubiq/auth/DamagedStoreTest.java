package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A damaged user or API-token file never throws out of {@link Auth#open} (it used to stop the whole gateway):
 * the auth module opens with the damage reported, sign-in, setup and tokens refused with a message naming the
 * file and the recovery, the damaged bytes copied aside and the file itself untouched; {@link AdminReset} is
 * the way back. Each kind of damage a disk or a hand edit leaves is tried.
 */
class DamagedStoreTest {

    @TempDir
    Path dir;

    /** The kinds of damage, each applied to a valid store file. */
    enum Damage {
        TRUNCATED {
            @Override
            byte[] apply(byte[] valid) {
                return Arrays.copyOf(valid, valid.length / 2);
            }
        },
        GARBAGE_BYTES {
            @Override
            byte[] apply(byte[] valid) {
                byte[] damaged = valid.clone();
                for (int i = valid.length / 3; i < valid.length / 3 + 8; i++) {
                    damaged[i] = (byte) (0x80 | i); // not UTF-8 any more
                }
                return damaged;
            }
        },
        FLIPPED_BIT {
            @Override
            byte[] apply(byte[] valid) {
                byte[] damaged = valid.clone();
                damaged[valid.length / 2] ^= 0x02; // still text; only the checksum tells
                return damaged;
            }
        },
        LINE_THAT_DOES_NOT_PARSE {
            @Override
            byte[] apply(byte[] valid) {
                String text = new String(valid, StandardCharsets.UTF_8);
                String body = text.substring(0, text.lastIndexOf("checksum=")) + "this line has no equals sign\n";
                return withChecksum(body); // a correct checksum: the parser has to catch it
            }
        };

        abstract byte[] apply(byte[] valid);
    }

    static byte[] withChecksum(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return (body + "checksum=crc32c:" + String.format("%08x", crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private Path usersWithAlice() throws Exception {
        new AuthFixture(dir).user("alice", "admin");
        return dir.resolve(UserStore.FILE_NAME);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void damagedUsersFileOpensWithSignInRefusedNamingTheFileAndTheRecovery(Damage damage) throws Exception {
        Path file = usersWithAlice();
        byte[] damaged = damage.apply(Files.readAllBytes(file));
        Files.write(file, damaged);

        AuthFixture f = new AuthFixture(dir); // threw CorruptStoreException before: the gateway did not start

        assertThat(f.auth.damage()).singleElement().satisfies(d -> assertThat(d.file()).isEqualTo(file));
        SignInResult result = f.auth.signIn().signIn("alice", AuthFixture.password("alice"), AuthFixture.FROM);
        assertThat(result).isInstanceOfSatisfying(SignInResult.Unavailable.class, u -> assertThat(u.reason())
                .contains(file.toString(), "damaged", "reset-admin", "Data collection continues"));
        assertThat(f.auth.authenticator().unavailable()).hasValueSatisfying(m -> assertThat(m).contains(file.toString()));
        assertThat(Files.readAllBytes(file)).as("the damaged file is left as it was").isEqualTo(damaged);
        Path copy = Path.of(f.auth.damage().get(0).copy());
        assertThat(copy.getParent()).isEqualTo(dir.resolve("corrupt"));
        assertThat(Files.readAllBytes(copy)).isEqualTo(damaged);
        assertThat(Files.readString(copy.resolveSibling(copy.getFileName() + ".note")))
                .contains(file.toString(), f.auth.damage().get(0).problem(), "reset-admin");
    }

    @Test
    void aUsersFileWrittenByANewerGatewayRefusesSignInSayingSoAndChangesNothing() throws Exception {
        Path file = usersWithAlice();
        String text = Files.readString(file);
        byte[] newer = withChecksum(text.substring(0, text.lastIndexOf("checksum="))
                .replace("format=qubiq-users/1", "format=qubiq-users/2"));
        Files.write(file, newer);

        AuthFixture f = new AuthFixture(dir);

        SignInResult result = f.auth.signIn().signIn("alice", AuthFixture.password("alice"), AuthFixture.FROM);
        assertThat(result).isInstanceOfSatisfying(SignInResult.Unavailable.class, u -> assertThat(u.reason())
                .contains(file.toString(), "qubiq-users/2 was written by a newer Qubiq", "reads qubiq-users/1",
                        "Nothing was changed", "Run the newer version again")
                .doesNotContain("damaged"));
        assertThat(f.auth.bootstrap().start(Optional.empty())).isEqualTo(AdminBootstrap.State.STORE_DAMAGED);
        assertThat(Files.readAllBytes(file)).isEqualTo(newer);
        assertThat(dir.resolve("corrupt")).as("not damage: no copy set aside").doesNotExist();
    }

    @Test
    void damagedUsersFileNeverOpensTheFirstAdministratorSetup() throws Exception {
        Path file = usersWithAlice();
        Files.write(file, Damage.TRUNCATED.apply(Files.readAllBytes(file)));
        AuthFixture f = new AuthFixture(dir);

        // would catch: an empty stand-in store read as "no users yet", handing the gateway to whoever comes first
        assertThat(f.auth.bootstrap().start(Optional.of("configured-owner-pw"))).isEqualTo(AdminBootstrap.State.STORE_DAMAGED);
        assertThat(f.announcements).isEmpty();
        assertThat(f.auth.bootstrap().setupPending()).isFalse();
        assertThatThrownBy(() -> f.auth.bootstrap().claimSetup("setup_x", "mallory", "intruder-password-1", "10.0.0.9"))
                .isInstanceOf(SetupRefusedException.class);
        assertThatThrownBy(() -> f.auth.users().create("mallory", "intruder-password-1", List.of("admin")))
                .as("nothing writes over the damaged file").isInstanceOf(java.io.UncheckedIOException.class);
    }

    @Test
    void reopeningOnTheSameDamageKeepsOneCopy() throws Exception {
        Path file = usersWithAlice();
        Files.write(file, Damage.FLIPPED_BIT.apply(Files.readAllBytes(file)));
        new AuthFixture(dir);
        new AuthFixture(dir);

        try (Stream<Path> copies = Files.list(dir.resolve("corrupt"))) {
            assertThat(copies.filter(p -> !p.toString().endsWith(".note"))).hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void damagedTokenFileRefusesEveryTokenAndSignInButOpens(Damage damage) throws Exception {
        AuthFixture before = new AuthFixture(dir);
        before.user("alice", "admin");
        String secret = before.auth.tokens().create("alice", "export", Optional.empty()).secret();
        Path file = dir.resolve(ApiTokens.FILE_NAME);
        Files.write(file, damage.apply(Files.readAllBytes(file)));

        AuthFixture f = new AuthFixture(dir);

        assertThat(f.auth.damage()).singleElement().satisfies(d -> assertThat(d.file()).isEqualTo(file));
        assertThat(f.auth.authenticator().fromBearer("Bearer " + secret)).isEmpty();
        assertThat(f.auth.authenticator().unavailable()).hasValueSatisfying(m -> assertThat(m).contains(file.toString()));
        assertThat(f.auth.signIn().signIn("alice", AuthFixture.password("alice"), AuthFixture.FROM))
                .isInstanceOf(SignInResult.Unavailable.class);
    }

    @Test
    void adminResetWritesAFreshUserStoreWithOneAdministratorAndEmptiesADamagedTokenFile() throws Exception {
        AuthFixture before = new AuthFixture(dir);
        before.user("alice", "admin");
        before.auth.tokens().create("alice", "export", Optional.empty());
        Path users = dir.resolve(UserStore.FILE_NAME);
        Path tokens = dir.resolve(ApiTokens.FILE_NAME);
        Files.write(users, Damage.GARBAGE_BYTES.apply(Files.readAllBytes(users)));
        Files.write(tokens, Damage.TRUNCATED.apply(Files.readAllBytes(tokens)));

        AdminReset.Report report = AdminReset.run(cheap(), dir, "admin", "reset-password-123", new MutableClock());

        assertThat(String.join("\n", report.done())).contains("damaged", "corrupt", "issued again");
        AuthFixture after = new AuthFixture(dir);
        assertThat(after.auth.damage()).isEmpty();
        assertThat(after.auth.users().list()).extracting(UserAccount::name).containsExactly("admin");
        assertThat(after.auth.signIn().signIn("admin", "reset-password-123", AuthFixture.FROM))
                .isInstanceOf(SignInResult.SignedIn.class);
        assertThat(after.auth.tokens().list()).isEmpty();
        try (Stream<Path> copies = Files.list(dir.resolve("corrupt"))) {
            assertThat(copies.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".note")))
                    .anyMatch(n -> n.startsWith(UserStore.FILE_NAME)).anyMatch(n -> n.startsWith(ApiTokens.FILE_NAME));
        }
    }

    @Test
    void adminResetOnAnIntactStoreKeepsTheOtherUsersAndResetsTheAdministratorsPassword() throws Exception {
        AuthFixture before = new AuthFixture(dir);
        before.user("admin", "viewer");
        before.user("bob", "operator");
        before.auth.users().setDisabled("admin", true);

        AdminReset.run(cheap(), dir, "admin", "reset-password-123", new MutableClock());

        AuthFixture after = new AuthFixture(dir);
        assertThat(after.auth.users().list()).extracting(UserAccount::name).containsExactly("admin", "bob");
        assertThat(after.auth.users().find("admin").orElseThrow().roles()).contains("admin");
        assertThat(after.auth.signIn().signIn("admin", "reset-password-123", AuthFixture.FROM))
                .isInstanceOf(SignInResult.SignedIn.class);
        assertThat(Files.exists(dir.resolve("corrupt"))).isFalse();
    }

    /** Defaults with the cheapest hashing the configuration allows. */
    static AuthConfig cheap() {
        AuthConfig d = AuthConfig.defaults();
        return new AuthConfig(d.sessionIdleTimeoutMs(), d.sessionAbsoluteTimeoutMs(), d.passwordMinLength(), 4096, 1, 1,
                d.signInFreeFailures(), d.signInBaseDelayMs(), d.signInMaxDelayMs(), d.signInMaxTrackedKeys(),
                d.adminUsername(), d.adminPassword(), d.setupTokenTtlMs(), d.roles());
    }
}
