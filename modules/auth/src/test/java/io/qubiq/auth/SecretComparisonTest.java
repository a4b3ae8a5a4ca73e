package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.password4j.Argon2Function;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SecretComparisonTest {

    @Test
    void comparisonIsExactIncludingLength() {
        assertThat(Secrets.constantTimeEquals("abc", "abc")).isTrue();
        assertThat(Secrets.constantTimeEquals("abc", "abd")).isFalse();
        assertThat(Secrets.constantTimeEquals("abc", "abcd")).isFalse();
        assertThat(Secrets.constantTimeEquals("", "")).isTrue();
    }

    @Test
    void randomSecretsCarryTheRequestedBitsAndDoNotRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String value = Secrets.random(16);
            assertThat(value).hasSize(22).matches("[A-Za-z0-9_-]+");
            assertThat(seen.add(value)).isTrue();
        }
    }

    @Test
    void passwordCheckRejectsMalformedOrForeignHashes() {
        PasswordHasher hasher = AuthFixture.hasher(8);
        String hash = hasher.hash("correct horse");

        assertThat(hasher.verify("correct horse", hash)).isEqualTo(PasswordHasher.Check.MATCH);
        assertThat(hasher.verify("correct horsf", hash)).isEqualTo(PasswordHasher.Check.MISMATCH);
        assertThat(hasher.verify("correct horse", "$2a$10$abcdefghijklmnopqrstuv")).isEqualTo(PasswordHasher.Check.MISMATCH);
        assertThat(hasher.verify("correct horse", hash.substring(0, hash.length() - 4)))
                .isEqualTo(PasswordHasher.Check.MISMATCH);
        assertThat(hasher.hash("correct horse")).as("fresh salt each time").isNotEqualTo(hash);
    }

    @Test
    void recommendedParametersAreOwaspsArgon2idBaselineAndVerify() {
        assertThat(Argon2Parameters.RECOMMENDED).isEqualTo(new Argon2Parameters(19_456, 2, 1));
        PasswordHasher hasher = new PasswordHasher(Argon2Parameters.RECOMMENDED, 12, 1);
        String hash = hasher.hash("plant-floor-password");

        assertThat(hash).startsWith("$argon2id$v=19$m=19456,t=2,p=1$");
        assertThat(hasher.verify("plant-floor-password", hash)).isEqualTo(PasswordHasher.Check.MATCH);
    }

    @Test
    void decoyHasTheShapeAndParametersOfARealHashAndMatchesNothing() {
        PasswordHasher hasher = AuthFixture.hasher(8);
        String real = hasher.hash("correct horse");
        String decoy = hasher.decoy();

        String[] realParts = real.split("\\$");
        String[] decoyParts = decoy.split("\\$");
        assertThat(decoyParts).hasSameSizeAs(realParts);
        assertThat(decoy).startsWith(real.substring(0, real.lastIndexOf('$', real.lastIndexOf('$') - 1) + 1));
        assertThat(decoyParts[4]).hasSameSizeAs(realParts[4]);
        assertThat(decoyParts[5]).hasSameSizeAs(realParts[5]);
        assertThat(Argon2Function.getInstanceFromHash(decoy)).isEqualTo(Argon2Function.getInstanceFromHash(real));
        assertThat(new PasswordHasher(AuthFixture.CHEAP, 8, 1).decoy()).as("a fresh salt and digest per hasher")
                .isNotEqualTo(decoy);

        long before = hasher.verifications();
        assertThat(hasher.verify("correct horse", decoy)).isEqualTo(PasswordHasher.Check.MISMATCH);
        assertThat(hasher.verify("", decoy)).isEqualTo(PasswordHasher.Check.MISMATCH);
        hasher.verifyDecoy("anything");
        assertThat(hasher.verifications() - before).as("each a full verification").isEqualTo(3);
    }

    @Test
    void overlongPasswordIsRefusedByThePolicy() {
        PasswordHasher hasher = AuthFixture.hasher(8);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> hasher.checkPolicy("someone", "xy".repeat(513)))
                .isInstanceOf(PasswordRejectedException.class).hasMessageContaining("at most 1024");
    }
}
