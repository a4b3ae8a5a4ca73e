package io.qubiq.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyNamesTest {

    @Test
    void writesComponentNamesInSnakeCase() {
        assertThat(KeyNames.snakeCase("gracePeriodMs")).isEqualTo("grace_period_ms");
        assertThat(KeyNames.snakeCase("port")).isEqualTo("port");
        assertThat(KeyNames.snakeCase("maxHTTPRetries")).isEqualTo("max_http_retries");
        assertThat(KeyNames.snakeCase("sha256Digest")).isEqualTo("sha256_digest");
        assertThat(KeyNames.snakeCase("opcUa")).isEqualTo("opc_ua");
    }

    @Test
    void writesEnumConstantsInLowerSnakeCase() {
        assertThat(KeyNames.enumValue(SampleConfig.Overflow.DROP_OLDEST)).isEqualTo("drop_oldest");
    }

    @Test
    void suggestsOnlyCloseCandidates() {
        List<String> keys = List.of("port", "tls_enabled", "keystore", "admin_password");

        assertThat(KeyNames.closest("prot", keys)).contains("port");
        assertThat(KeyNames.closest("keystroe", keys)).contains("keystore");
        assertThat(KeyNames.closest("AdminPassword", keys)).contains("admin_password");
        assertThat(KeyNames.closest("admin-password", keys)).contains("admin_password");
        assertThat(KeyNames.closest("host", keys)).isEmpty();
        assertThat(KeyNames.closest("certificate", keys)).isEmpty();
    }
}
