package io.qubiq.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qubiq check-config FILE}: a valid file is reported valid with a recommended heap and its reasoning. */
class CheckConfigTest {

    @TempDir
    Path dir;

    @Test
    void aValidFileIsReportedValidWithTheRecommendedHeapAndEachPartOfTheEstimate() throws Exception {
        Path file = Files.writeString(dir.resolve("gateway.yaml"), "historian: {}\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = Main.run(new String[] {"check-config", file.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(ExitCode.OK);
        assertThat(printed)
                .contains(file + ": valid")
                .contains("recommended heap: 256 MiB")
                .contains("base: the gateway's own structures")
                .contains("historian tag-bus queue, full: 100000 values x 160 B")
                .contains("live tail, full: min(0 tags x 1000, 1000000) = 0 samples")
                .contains("2 store-and-forward channel(s)");
    }

    @Test
    void anInvalidFileGetsNoRecommendation() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "http:\n  port: 99999\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int code = Main.run(new String[] {"check-config", file.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));

        assertThat(code).isEqualTo(ExitCode.INVALID);
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("recommended heap");
    }

    @Test
    void runReadsTheFileWithTheEnvironmentItIsGivenAndStartsNothingWhenItIsInvalid() throws Exception {
        Path file = Files.writeString(dir.resolve("gateway.yaml"), "gateway: {name: \"${PLANT}\"}\nhttp:\n  port: 99999\n");
        Path data = dir.resolve("data");
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = Main.run(new String[] {"run", "--config", file.toString(), "--data-dir", data.toString()},
                java.util.Map.of(), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(ExitCode.INVALID);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("2 problems", "gateway.name: environment variable"
                + " PLANT is not set", "http.port:", "not started; nothing was changed");
        assertThat(data).doesNotExist();
    }
}
