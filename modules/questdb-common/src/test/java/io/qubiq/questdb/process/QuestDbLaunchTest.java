package io.qubiq.questdb.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuestDbLaunchTest {

    @TempDir
    Path dir;

    private QuestDbLaunch launch(boolean ownSession) {
        Map<String, String> settings = QuestDbLaunch.loopback(9000, 8812);
        settings.put("QDB_LINE_TCP_ENABLED", "false");
        return new QuestDbLaunch(Path.of("/opt/questdb-9.3.4.jar"), dir.resolve("db"), List.of("-Xmx256m"), settings,
                dir.resolve("stdout.log"), ownSession);
    }

    @Test
    void theCommandRunsServerMainFromTheJarOnTheAbsoluteDirectoryWithTheJvmOptions() {
        List<String> command = launch(false).command();

        assertThat(command.get(0)).isEqualTo(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        assertThat(command.subList(1, command.size())).containsExactly("-Xmx256m", "-p", "/opt/questdb-9.3.4.jar",
                "-m", "io.questdb/io.questdb.ServerMain", "-d", dir.resolve("db").toAbsolutePath().toString());
    }

    @Test
    void aLaunchInItsOwnSessionStartsWithSetsidWhereItIsInstalled() {
        List<String> command = launch(true).command();

        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            assertThat(command.get(0)).isEqualTo("/usr/bin/setsid");
            assertThat(command.subList(1, command.size())).isEqualTo(launch(false).command());
        } else {
            assertThat(command).isEqualTo(launch(false).command());
        }
    }

    @Test
    void loopbackSettingsBindHttpAndPgTo127001TurnUdpAndTelemetryOffAndCapTheRamAtAQuarter() {
        assertThat(QuestDbLaunch.loopback(9000, 8812)).containsExactly(
                Map.entry("QDB_HTTP_BIND_TO", "127.0.0.1:9000"),
                Map.entry("QDB_PG_NET_BIND_TO", "127.0.0.1:8812"),
                Map.entry("QDB_LINE_UDP_ENABLED", "false"),
                Map.entry("QDB_TELEMETRY_ENABLED", "false"),
                Map.entry("QDB_RAM_USAGE_LIMIT_PERCENT", "25"));
    }

    @Test
    void theSettingsGoToTheChildsEnvironmentAndItsOutputIsAppendedToOneFile() {
        ProcessBuilder builder = launch(false).processBuilder();

        assertThat(builder.environment()).containsEntry("QDB_HTTP_BIND_TO", "127.0.0.1:9000")
                .containsEntry("QDB_LINE_TCP_ENABLED", "false");
        assertThat(builder.redirectErrorStream()).isTrue();
        assertThat(builder.redirectOutput()).isEqualTo(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile()));
        assertThat(builder.command()).isEqualTo(launch(false).command());
    }

    @Test
    void prepareWritesALogConfigThatSendsQuestDbsLogToItsOwnFile() throws Exception {
        QuestDbLaunch launch = launch(false);

        launch.prepare();

        assertThat(launch.logFile()).isEqualTo(dir.resolve("db/questdb.log"));
        assertThat(Files.readAllLines(dir.resolve("db/conf/log.conf"))).contains("writers=file",
                "w.file.class=io.questdb.log.LogFileWriter", "w.file.location=" + launch.logFile().toAbsolutePath(),
                "w.file.level=INFO,ERROR,CRITICAL,ADVISORY");
    }
}
