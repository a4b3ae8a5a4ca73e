package io.qubiq.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's class-data archive (docs/operations.md, "Start-up time"), through {@code ./qubiq} itself with
 * a copy of the packaged jar: the first {@code run} makes the archive once by the real training run
 * ({@code train-class-archive}, about 20 s, done once for the class), later starts map the gateway's classes
 * from it, and an archive is never used when it could be wrong or someone else's: a rebuilt jar, a cache
 * directory others can write to, {@code QUBIQ_CDS=off}. "Loaded from the archive" is witnessed by the JVM's
 * own class-loading log ({@code -Xlog:class+load}), not by the launcher's word.
 *
 * <p>What it would catch: a training that fails or writes no archive (no file, or a second training on the
 * next start), an archive made but not passed to the JVM, a stale archive used after the jar changed (the JVM
 * would warn and load nothing from it), a world-writable directory trusted.
 */
class LauncherClassArchiveIT {

    private static final Path LAUNCHER = Path.of(System.getProperty("qubiq.repo", ".."), "qubiq").toAbsolutePath();
    private static final String MAIN_FROM_ARCHIVE = "io.qubiq.app.Main source: shared objects file (top)";
    private static final String MAIN_FROM_JAR = "io.qubiq.app.Main source: file:";
    private static final String TRAINING = "making the class-data archive";

    @TempDir
    static Path dir;
    static Path jar;
    static Path cache;
    static Launched first;

    @BeforeAll
    static void theFirstRunTrains() throws Exception {
        jar = Files.copy(GatewayProcess.JAR, Files.createDirectories(dir.resolve("app")).resolve("qubiq-gateway.jar"));
        cache = dir.resolve("cds");
        first = launch(Map.of(), "run", "--config", dir.resolve("missing.yaml").toString());
    }

    @Test
    void theFirstRunMakesOneArchiveThatOnlyTheGatewaysUserCanReadOrChange() throws Exception {
        assertThat(first.output()).contains(TRAINING).doesNotContain("training failed");
        assertThat(first.exitCode()).as(first.output()).isEqualTo(ExitCode.INVALID); // then the missing file
        assertThat(archives()).hasSize(1);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(archives().get(0))))
                .matches("r[w-]-------");
        try (Stream<Path> left = Files.list(cache)) {
            assertThat(left.map(path -> path.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp"));
        }
    }

    @Test
    void laterStartsMapTheGatewaysClassesFromTheArchiveWithoutTrainingAgain() throws Exception {
        Launched again = launch(Map.of("QUBIQ_JAVA_OPTS", "-Xlog:class+load=info"),
                "run", "--config", dir.resolve("missing.yaml").toString());

        assertThat(again.output()).doesNotContain(TRAINING).contains(MAIN_FROM_ARCHIVE)
                .contains("io.qubiq.app.cli.CommandLineParser source: shared objects file (top)");
        assertThat(archives()).hasSize(1);
        Launched named = launch(Map.of(), "class-archive");
        assertThat(named.exitCode()).isZero();
        assertThat(named.output()).isEqualTo("qubiq: class-data archive " + archives().get(0) + "\n");
    }

    @Test
    void aRebuiltJarIsNotRunWithTheArchiveOfTheOldOne() throws Exception {
        FileTime built = Files.getLastModifiedTime(jar);
        try {
            Files.setLastModifiedTime(jar, FileTime.fromMillis(built.toMillis() + 60_000));
            Launched version = launch(Map.of("QUBIQ_JAVA_OPTS", "-Xlog:class+load=info"), "version");

            assertThat(version.exitCode()).isZero();
            assertThat(version.output()).contains(MAIN_FROM_JAR).doesNotContain(MAIN_FROM_ARCHIVE)
                    .doesNotContain("[warning][cds]").doesNotContain(TRAINING);
        } finally {
            Files.setLastModifiedTime(jar, built);
        }
    }

    @Test
    void aCacheDirectoryOthersCanWriteToIsNotUsedAndTheLauncherSaysWhy() throws Exception {
        try {
            Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));
            Launched version = launch(Map.of("QUBIQ_JAVA_OPTS", "-Xlog:class+load=info"), "version");

            assertThat(version.exitCode()).isZero();
            assertThat(version.output()).contains("not using class-data archives in " + cache)
                    .contains("writable by no one else").contains(MAIN_FROM_JAR).doesNotContain(MAIN_FROM_ARCHIVE);
        } finally {
            Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void offNeitherMakesNorUsesAnArchive() throws Exception {
        Path elsewhere = dir.resolve("cds-off");
        Launched off = launch(Map.of("QUBIQ_CDS", "off", "QUBIQ_CDS_DIR", elsewhere.toString(),
                "QUBIQ_JAVA_OPTS", "-Xlog:class+load=info"), "run", "--config", dir.resolve("missing.yaml").toString());

        assertThat(off.output()).doesNotContain(TRAINING).contains(MAIN_FROM_JAR).doesNotContain(MAIN_FROM_ARCHIVE);
        assertThat(elsewhere).doesNotExist();
    }

    @Test
    void aFailedTrainingIsReportedAndNotRepeatedAtEveryStart() throws Exception {
        Path notTheGateway = dir.resolve("not-the-gateway.jar"); // a jar without a main class: training fails
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(notTheGateway), new Manifest())) {
            out.putNextEntry(new JarEntry("empty.txt"));
        }
        Path elsewhere = dir.resolve("cds-failed");
        Map<String, String> env = Map.of("QUBIQ_JAR", notTheGateway.toString(), "QUBIQ_CDS_DIR", elsewhere.toString());

        Launched failing = launch(env, "run", "--config", dir.resolve("missing.yaml").toString());
        Launched next = launch(env, "run", "--config", dir.resolve("missing.yaml").toString());

        assertThat(failing.output()).contains(TRAINING).contains("the class-data training failed (see "
                + elsewhere.resolve("training.log") + "); starting without an archive");
        assertThat(next.output()).doesNotContain(TRAINING).contains("its training failed before")
                .contains("to try again");
        try (Stream<Path> files = Files.list(elsewhere)) {
            assertThat(files.map(path -> path.getFileName().toString()))
                    .anyMatch(name -> name.endsWith(".failed")).noneMatch(name -> name.endsWith(".jsa"));
        }
    }

    private static List<Path> archives() throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            return files.filter(path -> path.getFileName().toString().endsWith(".jsa")).toList();
        }
    }

    record Launched(int exitCode, String output) {
    }

    private static Launched launch(Map<String, String> extraEnv, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("launch-" + System.nanoTime() + ".out").toFile());
        Map<String, String> env = builder.environment();
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("QUBIQ_JAR", jar.toString());
        env.put("QUBIQ_CDS_DIR", cache.toString());
        env.remove("QUBIQ_CDS");
        env.remove("QUBIQ_JAVA_OPTS");
        env.putAll(new HashMap<>(extraEnv));
        Process process = builder.start();
        try {
            if (!process.waitFor(240, TimeUnit.SECONDS)) {
                throw new AssertionError("qubiq " + String.join(" ", args) + " did not finish within 240 s");
            }
        } finally {
            process.destroyForcibly();
        }
        return new Launched(process.exitValue(), Files.readString(builder.redirectOutput().file().toPath()));
    }
}
