package io.qubiq.benchmarks.targetrun;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The one report of a run, as text: the load, what was stored, lost and duplicated, start-to-ready of
 * each gateway start, the gateway's CPU and RSS, and the disconnects its log shows. Immutable.
 */
record TargetReport(TargetOptions options, List<Duration> readiness, double runSeconds, double cpuDuringRun,
                    double cpuTotal, long maxRssKb, long mqttPublished, long mqttFailed, HistoryCheck.Verdict v,
                    GatewayLog log, List<HistoryCheck.Window> down) {

    String render() {
        StringBuilder out = new StringBuilder();
        line(out, "=== target-run: %s, %d OPC UA tags every %d ms, %d MQTT msg/s over %d topics, %d s ===",
                options.scenario.name().toLowerCase(Locale.ROOT), options.tags, options.intervalMs, options.mqttRate,
                options.topics, options.seconds);
        line(out, "host: %d cores, load %s", Runtime.getRuntime().availableProcessors(), loadAverage());
        line(out, "OPC UA  changed %,d  stored %,d  lost %,d  duplicated %,d  not collected while the gateway was down %,d",
                v.opcChanged(), v.opcStored(), v.opcLost(), v.opcDuplicates(), v.opcNotCollectedWhileDown());
        v.opcLostExamples().forEach(e -> line(out, "        lost: %s", e));
        line(out, "MQTT    published %,d  acknowledged by the broker %,d  stored %,d  lost %,d  duplicated %,d"
                        + "  (stored without an acknowledgement %,d, publishes failed %,d)",
                mqttPublished, v.mqttAcknowledged(), v.mqttStored(), v.mqttLost(), v.mqttDuplicates(),
                v.mqttStoredUnacknowledged(), mqttFailed);
        v.mqttLostExamples().forEach(e -> line(out, "        lost: %s", e));
        v.mqttDuplicateExamples().forEach(e -> line(out, "        duplicated: %s", e));
        line(out, "rows    %,d in %s; identical (tag, ts, value) repeated %,d; without a value (bad quality) %,d;"
                        + " flagged Overflow by the OPC UA server %,d", v.totalRows(), HistoryCheck.TABLE,
                v.identicalRows(), v.rowsWithoutValue(), v.overflowRows());
        StringBuilder ready = new StringBuilder();
        for (int i = 0; i < readiness.size(); i++) {
            ready.append(i == 0 ? "" : ", after the restart ").append(String.format(Locale.ROOT, "%.1f s",
                    readiness.get(i).toMillis() / 1000.0));
        }
        line(out, "start to ready (/health READY): %s", ready);
        down.forEach(w -> line(out, "gateway down: %.1f s (kill -9 to READY again)", (w.toMs() - w.fromMs()) / 1000.0));
        long storedValues = v.opcStored() + v.mqttStored();
        line(out, "gateway CPU %.2f cores during the run (%.0f CPU s over %.0f s); %.1f CPU us per stored value"
                        + " (whole life, %.0f CPU s)", cpuDuringRun / runSeconds, cpuDuringRun, runSeconds,
                storedValues == 0 ? 0 : cpuTotal * 1e6 / storedValues, cpuTotal);
        line(out, "gateway max RSS %.0f MiB", maxRssKb / 1024.0);
        line(out, "disconnects in the gateway log: MQTT %d, OPC UA %d; ERROR lines %d", log.mqttDisconnects(),
                log.opcUaDisconnects(), log.errors());
        log.causes().forEach(c -> line(out, "        %s", c));
        line(out, "verdict: %s", v.clean() ? "every value arrived once"
                : "values LOST or DUPLICATED (exit code 2)");
        line(out, "work directory: %s", options.workDir.toAbsolutePath());
        return out.toString();
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }

    private static String loadAverage() {
        try {
            String[] parts = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
