package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.config.edit.YamlEditException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Would catch a secret leaving the gateway in an export, or an import that writes the mask into the file. */
class ExportedTextTest {

    private final ExportedText text = new ExportedText(Set.of("password", "admin_password"));
    private static final String FILE = """
            auth:
              admin_password: s3cret-admin   # set at install
            outbound:
              db:
                sql: {jdbc_url: "jdbc:postgresql://db/plant", password: "${DB_PASSWORD}"}
              mes:
                mqtt:
                  host: mes
                  password: clear-broker-secret
            """;

    @Test
    void clearSecretsAreMaskedInPlaceAndReferencesStay() throws Exception {
        String masked = text.masked(FILE);
        assertThat(masked).isEqualTo(FILE.replace("s3cret-admin", "\"***\"")
                .replace("clear-broker-secret", "\"***\""));
    }

    @Test
    void aMaskedSecretTakesTheValueTheFileHoldsNowAtTheSameKey() throws Exception {
        String imported = text.masked(FILE).replace("host: mes", "host: mes2");
        assertThat(text.unmasked(imported, FILE)).isEqualTo(FILE.replace("host: mes", "host: mes2"));
    }

    @Test
    void aMaskedSecretTheFileCannotFillInIsRefusedWithItsKeyPath() {
        String imported = FILE.replace("host: mes", "host: mes\n      username: u") + """
                  lake:
                    mqtt:
                      host: lake
                      password: "***"
                """;
        assertThatThrownBy(() -> text.unmasked(imported, FILE)).isInstanceOf(YamlEditException.class)
                .hasMessageStartingWith("outbound.lake.mqtt.password: is masked");
    }
}
