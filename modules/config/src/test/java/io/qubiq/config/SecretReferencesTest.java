package io.qubiq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code ${secret:NAME}} references: values from the secrets store, never from the environment. */
class SecretReferencesTest {

    record Login(String user, @io.qubiq.core.config.Secret String password) {
    }

    private static final SecretLookup STORE = name -> Optional.ofNullable(Map.of("login.password-1", "s3cret")
            .get(name));

    @Test
    void aSecretReferenceTakesItsValueFromTheSecretsStore() throws ConfigException {
        BoundConfig<Login> bound = ConfigLoader.bind("login.yaml", "user: op\npassword: ${secret:login.password-1}\n",
                Login.class, Map.of(), STORE);

        assertThat(bound.config().password()).isEqualTo("s3cret");
        assertThat(bound.fromSecrets()).isEqualTo(Map.of("password", List.of("login.password-1")));
        assertThat(bound.fromEnvironment()).as("a key from the store is not a key from the environment").isEmpty();
    }

    @Test
    void anEnvironmentVariableNamedLikeTheSecretIsNotTaken() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.bind("login.yaml",
                "user: op\npassword: ${secret:other-1}\n", Login.class, Map.of("secret:other-1", "no"), STORE));

        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.keyPath()).isEqualTo("password");
            assertThat(p.message()).contains("secret other-1 is not in the gateway's secrets store");
        });
    }

    @Test
    void withoutASecretsStoreEveryReferenceIsAProblemAtItsKey() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.bind("login.yaml",
                "user: op\npassword: ${secret:login.password-1}\n", Login.class, Map.of()));

        assertThat(e.getMessage()).contains("login.yaml:2:11: password: secret login.password-1 is not in");
    }
}
