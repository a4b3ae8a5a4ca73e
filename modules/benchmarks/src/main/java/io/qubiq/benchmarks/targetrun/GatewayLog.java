package io.qubiq.benchmarks.targetrun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What the gateway's output files say about its connections: a line {@code MQTT connection <id>: ...;
 * reconnecting} or {@code OPC UA connection <id>: ...; reconnecting} is one disconnect the connector
 * saw. Counts them per protocol and keeps a few distinct causes (numbers blanked, so that repeats of
 * one cause count once). Immutable.
 */
record GatewayLog(int mqttDisconnects, int opcUaDisconnects, List<String> causes, int errors) {

    static GatewayLog read(List<Path> outputs) throws IOException {
        int mqtt = 0;
        int opcUa = 0;
        int errors = 0;
        Set<String> causes = new LinkedHashSet<>();
        for (Path output : outputs) {
            if (!Files.exists(output)) {
                continue;
            }
            try (Stream<String> lines = Files.lines(output)) {
                for (String line : (Iterable<String>) lines::iterator) {
                    boolean reconnecting = line.contains("; reconnecting");
                    if (reconnecting && line.contains("MQTT connection ")) {
                        mqtt++;
                    } else if (reconnecting && line.contains("OPC UA connection ")) {
                        opcUa++;
                    } else if (line.contains(" ERROR ")) {
                        errors++;
                    } else {
                        continue;
                    }
                    if (causes.size() < 8) {
                        int at = line.indexOf(" connection ");
                        causes.add((at >= 0 ? line.substring(at + 1) : line).replaceAll("[0-9]+", "N"));
                    }
                }
            }
        }
        return new GatewayLog(mqtt, opcUa, new ArrayList<>(causes), errors);
    }
}
