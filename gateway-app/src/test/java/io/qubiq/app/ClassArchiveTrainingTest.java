package io.qubiq.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.app.config.LoadedConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qubiq train-class-archive}: the training configuration is valid and stays on loopback, and a data
 * directory that holds anything is refused before anything is written. The run itself, through the
 * launcher, is {@code LauncherClassArchiveIT}'s.
 */
class ClassArchiveTrainingTest {

    @TempDir
    Path dir;

    @Test
    void theTrainingConfigurationBindsAndListensOnLoopbackOnly() throws Exception {
        LoadedConfig loaded = ClassArchiveTraining.config(Map.of());

        assertThat(loaded.config().http().bindAddress()).isEqualTo("127.0.0.1");
        assertThat(loaded.config().questdb().embedded()).isFalse();
        assertThat(loaded.config().questdb().client().address()).startsWith("127.0.0.1:");
    }

    @Test
    void aDataDirectoryThatHoldsAnythingIsRefusedAndLeftAsItWas() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path users = Files.writeString(data.resolve("users.json"), "{}");
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = Main.run(new String[] {"train-class-archive", "--data-dir", data.toString()}, Map.of(),
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(ExitCode.INVALID);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(data.toString()).contains("holds files");
        try (var entries = Files.list(data)) {
            assertThat(entries).containsExactly(users);
        }
        assertThat(Files.readString(users)).isEqualTo("{}");
    }
}
