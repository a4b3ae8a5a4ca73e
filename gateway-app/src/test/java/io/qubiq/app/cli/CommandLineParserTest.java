package io.qubiq.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class CommandLineParserTest {

    private final CommandLineParser parser = new CommandLineParser();

    @Test
    void runTakesConfigDataDirAndPortInAnyOrderAndEitherSpelling() throws Exception {
        Command command = parser.parse(List.of("run", "--http-port=9090", "--config", "plant.yaml", "--data-dir", "/var/q"));
        assertThat(command).isEqualTo(new Command.Run(Path.of("plant.yaml"),
                new Command.RunOptions(Path.of("/var/q"), OptionalInt.of(9090))));
    }

    @Test
    void demoDefaultsToDataDirectoryInTheWorkingDirectoryAndConfiguredPort() throws Exception {
        assertThat(parser.parse(List.of("demo"))).isEqualTo(
                new Command.Demo(new Command.RunOptions(Path.of("data"), OptionalInt.empty())));
    }

    @Test
    void resetAdminTakesDataDirConfigAndUserAndDefaultsToTheWorkingDirectorysData() throws Exception {
        assertThat(parser.parse(List.of("reset-admin"))).isEqualTo(
                new Command.ResetAdmin(Path.of("data"), java.util.Optional.empty(), java.util.Optional.empty()));
        assertThat(parser.parse(List.of("reset-admin", "--user=root", "--data-dir", "/var/q", "--config", "p.yaml")))
                .isEqualTo(new Command.ResetAdmin(Path.of("/var/q"), java.util.Optional.of(Path.of("p.yaml")),
                        java.util.Optional.of("root")));
        assertThatThrownBy(() -> parser.parse(List.of("reset-admin", "--http-port", "1")))
                .isInstanceOf(UsageException.class).hasMessageContaining("--data-dir DIR, --config FILE, --user NAME");
    }

    @Test
    void trainClassArchiveNeedsADataDirectoryAndTakesNothingElse() throws Exception {
        assertThat(parser.parse(List.of("train-class-archive", "--data-dir=/tmp/t")))
                .isEqualTo(new Command.TrainClassArchive(Path.of("/tmp/t")));
        assertThatThrownBy(() -> parser.parse(List.of("train-class-archive")))
                .isInstanceOf(UsageException.class).hasMessageContaining("train-class-archive needs --data-dir DIR");
        assertThatThrownBy(() -> parser.parse(List.of("train-class-archive", "--data-dir", "d", "--http-port", "1")))
                .isInstanceOf(UsageException.class).hasMessageContaining("unexpected argument '--http-port'");
    }

    @Test
    void runWithoutConfigIsAUsageErrorThatPointsToDemo() {
        assertThatThrownBy(() -> parser.parse(List.of("run")))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("run needs --config FILE").hasMessageContaining("qubiq demo");
    }

    @Test
    void portOutsideTheValidRangeOrNotANumberIsRejectedWithTheValue() {
        assertThatThrownBy(() -> parser.parse(List.of("demo", "--http-port", "70000")))
                .hasMessage("--http-port expects a port number from 0 to 65535, got '70000'");
        assertThatThrownBy(() -> parser.parse(List.of("demo", "--http-port", "http")))
                .hasMessage("--http-port expects a port number from 0 to 65535, got 'http'");
    }

    @Test
    void optionWithoutValueIsRejected() {
        assertThatThrownBy(() -> parser.parse(List.of("run", "--config")))
                .hasMessage("--config needs a value");
        assertThatThrownBy(() -> parser.parse(List.of("run", "--config", "--data-dir", "x")))
                .hasMessage("--config needs a value");
    }

    @Test
    void unknownCommandsAndOptionsAreNamed() {
        assertThatThrownBy(() -> parser.parse(List.of("start")))
                .hasMessageContaining("unknown command 'start'");
        assertThatThrownBy(() -> parser.parse(List.of("demo", "--verbose")))
                .hasMessageContaining("unexpected argument '--verbose'");
        assertThatThrownBy(() -> parser.parse(List.of("demo", "--config", "x.yaml")))
                .hasMessageContaining("demo uses its built-in configuration");
    }

    @Test
    void checkConfigNeedsExactlyOneFile() throws Exception {
        assertThat(parser.parse(List.of("check-config", "a.yaml"))).isEqualTo(new Command.CheckConfig(Path.of("a.yaml"),
                CommandLineParser.DEFAULT_DATA_DIR));
        assertThat(parser.parse(List.of("check-config", "a.yaml", "--data-dir", "/var/lib/q")))
                .isEqualTo(new Command.CheckConfig(Path.of("a.yaml"), Path.of("/var/lib/q")));
        assertThatThrownBy(() -> parser.parse(List.of("check-config"))).hasMessageContaining("needs the configuration FILE");
        assertThatThrownBy(() -> parser.parse(List.of("check-config", "a.yaml", "b.yaml")))
                .hasMessageContaining("unexpected argument 'b.yaml'");
    }

    @Test
    void noArgumentsMeansHelpAndVersionHasAliases() throws Exception {
        assertThat(parser.parse(List.of())).isInstanceOf(Command.Help.class);
        assertThat(parser.parse(List.of("--version"))).isEqualTo(new Command.Version());
    }
}
