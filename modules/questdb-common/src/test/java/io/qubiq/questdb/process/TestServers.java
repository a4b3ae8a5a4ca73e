package io.qubiq.questdb.process;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A QuestDB launch for this module's tests: the Maven jar, free loopback ports, a small heap. */
public final class TestServers {

    private TestServers() {
    }

    public static Path questDbJar() {
        try {
            return Path.of(io.questdb.ServerMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the QuestDB jar", e);
        }
    }

    /** A launch on {@code dir} with HTTP on {@code httpPort} and every other listener on a free port or off. */
    public static QuestDbLaunch launch(Path dir, int httpPort) {
        List<Integer> ports = LoopbackPorts.take(2);
        Map<String, String> settings = QuestDbLaunch.loopback(httpPort, ports.get(0));
        settings.put("QDB_HTTP_MIN_NET_BIND_TO", "127.0.0.1:" + ports.get(1));
        settings.put("QDB_LINE_TCP_ENABLED", "false");
        settings.put("QDB_SHARED_WORKER_COUNT", "2");
        return new QuestDbLaunch(questDbJar(), dir, List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
                settings, dir.resolve("stdout.txt"), false);
    }
}
