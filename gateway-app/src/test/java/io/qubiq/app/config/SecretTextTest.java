package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.config.ConfigSchema;
import org.junit.jupiter.api.Test;

/** Secret values masked in configuration text, in block and flow style, wherever the key is. */
class SecretTextTest {

    private final SecretText secrets = SecretText.of(ConfigSchema.of(GatewayConfig.class));

    @Test
    void theValueOfEverySecretKeyIsMaskedInBlockAndFlowStyle() {
        String text = """
                auth:
                  admin_password: "clear, with a comma"  # set once
                outbound:
                  db:
                    sql: {jdbc_url: "jdbc:x", username: u, password: hunter2}
                  broker:
                    mqtt:
                      - password: 'single'
                """;

        String masked = secrets.mask(text);

        assertThat(masked).doesNotContain("clear, with a comma", "hunter2", "single")
                .contains("  admin_password: ***\n", "username: u, password: ***", "- password: ***", "jdbc_url: \"jdbc:x\"");
    }

    @Test
    void aReferenceToAVariableIsShownForItNamesNoSecret() {
        assertThat(secrets.mask("    sql: {username: u, password: \"${DB_PASSWORD}\"}\n"))
                .isEqualTo("    sql: {username: u, password: \"${DB_PASSWORD}\"}\n");
        assertThat(secrets.mask("  password: ${DB_PASSWORD}\n")).isEqualTo("  password: ${DB_PASSWORD}\n");
    }

    @Test
    void otherKeysAreLeftAlone() {
        String text = "gateway:\n  name: password\n  password_hint_ms: 3\n";
        assertThat(secrets.mask(text)).isEqualTo(text);
    }
}
