package io.qubiq.questdb.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to start one QuestDB server as a child JVM from its jar: {@code [setsid] java <jvm options>
 * -p <jar> -m io.questdb/io.questdb.ServerMain -d <dir>}, with QuestDB's settings passed as
 * {@code QDB_*} environment overrides and the child's standard output and error appended to one
 * file. QuestDB's own log goes to {@code questdb.log} in its directory through the {@code
 * conf/log.conf} that {@link #prepare()} writes: left alone, QuestDB logs to file descriptor 1,
 * which would mix into (and for Surefire corrupt) the parent's output.
 *
 * <p>Both QuestDBs of the code base start this way: the gateway's embedded one and the testkit's
 * test server. Each adds its own settings to {@link #loopback}'s common ones. Immutable.
 *
 * @param jar         the {@code org.questdb:questdb} jar
 * @param dir         QuestDB's root directory (data, {@code conf/}, its log)
 * @param jvmOptions  options for the child JVM, such as {@code -Xmx256m}
 * @param settings    {@code QDB_*} environment overrides, in the order given
 * @param output      the file the child's standard output and error are appended to
 * @param ownSession  whether to start the child in a session of its own ({@code setsid}, when
 *                    installed), so that a signal sent to the parent's process group (Ctrl-C) does
 *                    not reach QuestDB and the parent can stop it in order
 */
public record QuestDbLaunch(Path jar, Path dir, List<String> jvmOptions, Map<String, String> settings, Path output,
        boolean ownSession) {

    private static final Path SETSID = Path.of("/usr/bin/setsid");

    public QuestDbLaunch {
        Objects.requireNonNull(jar, "jar");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(output, "output");
        jvmOptions = List.copyOf(jvmOptions);
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    /**
     * The settings every QuestDB of the gateway uses: HTTP ({@code /exec}, {@code /ping}, ILP over
     * HTTP) and PG wire bound to 127.0.0.1 on the given ports, ILP over UDP and telemetry off, and
     * QuestDB's native memory capped at a quarter of the RAM. Ordered; the caller adds to a copy.
     */
    public static Map<String, String> loopback(int httpPort, int pgPort) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("QDB_HTTP_BIND_TO", "127.0.0.1:" + httpPort);
        settings.put("QDB_PG_NET_BIND_TO", "127.0.0.1:" + pgPort);
        settings.put("QDB_LINE_UDP_ENABLED", "false");
        settings.put("QDB_TELEMETRY_ENABLED", "false");
        settings.put("QDB_RAM_USAGE_LIMIT_PERCENT", "25");
        return settings;
    }

    /** QuestDB's own log file, {@code questdb.log} in its directory. */
    public Path logFile() {
        return dir.resolve("questdb.log");
    }

    /** The command line, with the running JVM's {@code java} for the child. */
    public List<String> command() {
        List<String> command = new ArrayList<>();
        if (ownSession && Files.isExecutable(SETSID)) {
            command.add(SETSID.toString());
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-p", jar.toString(), "-m", "io.questdb/io.questdb.ServerMain",
                "-d", dir.toAbsolutePath().toString()));
        return command;
    }

    /** Creates the directory and its {@code conf/} and writes {@code conf/log.conf} (to {@link #logFile()}). */
    public void prepare() throws IOException {
        Files.createDirectories(dir.resolve("conf"));
        Files.writeString(dir.resolve("conf/log.conf"), String.join("\n",
                "# Written by Qubiq: QuestDB logs to this file, never to standard output.",
                "writers=file",
                "w.file.class=io.questdb.log.LogFileWriter",
                "w.file.location=" + logFile().toAbsolutePath(),
                "w.file.level=INFO,ERROR,CRITICAL,ADVISORY",
                ""));
    }

    /** A process builder for {@link #command()} with the settings in its environment; it can start the child again. */
    public ProcessBuilder processBuilder() {
        ProcessBuilder builder = new ProcessBuilder(command())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        builder.environment().putAll(settings);
        return builder;
    }
}
