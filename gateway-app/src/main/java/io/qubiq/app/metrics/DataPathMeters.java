package io.qubiq.app.metrics;

import io.micrometer.core.instrument.Tags;
import io.qubiq.console.DeviceAccess;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.historian.HistorianStatus;
import io.qubiq.historian.wal.WalTableStatus;
import io.qubiq.pipeline.PipelineStatus;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The meters of the data path upstream of the channels: device connections ({@code device_*}),
 * the historian ({@code historian_*}) and pipelines ({@code pipeline_*}). Each reads the counts
 * its owner already keeps, at scrape time; a part that is not running (yet) reads 0.
 */
final class DataPathMeters {

    private DataPathMeters() {
    }

    /** Per device connection, tagged {@code connection}; counters by the connectors' shared names. */
    static void bindDevice(Meters meters, DeviceAccess devices, String id) {
        Tags tags = Tags.of("connection", id);
        Function<DeviceAccess, Optional<DeviceAccess.Device>> device = d -> d.device(id);
        meters.gauge("device_connected", "1 while the device connection is up", tags, devices,
                d -> device.apply(d).map(x -> x.status().state() == ConnectionState.UP ? 1.0 : 0.0).orElse(0.0));
        deviceCounter(meters, "device_values_received", "Tag values received from the device", tags, devices, device,
                "values_received");
        deviceCounter(meters, "device_reconnects", "Reconnections after the connection was lost", tags, devices, device,
                "reconnects");
        deviceCounter(meters, "device_errors", "Connection, subscription and read errors", tags, devices, device,
                "errors");
        deviceCounter(meters, "device_tag_limit_refusals", "Messages refused because they would create a tag past"
                + " the connection's max_dynamic_tags (MQTT)", tags, devices, device, "tag_limit_refusals");
    }

    private static void deviceCounter(Meters meters, String name, String description, Tags tags, DeviceAccess devices,
                                      Function<DeviceAccess, Optional<DeviceAccess.Device>> device, String counter) {
        meters.counter(name, description, tags, devices,
                d -> device.apply(d).map(x -> x.counters().getOrDefault(counter, 0L)).orElse(0L).doubleValue());
    }

    static void bindHistorian(Meters meters, Supplier<HistorianStatus> status) {
        historianCounter(meters, "historian_values_received", "Tag values the historian received from the tag bus",
                status, HistorianStatus::valuesReceived);
        historianCounter(meters, "historian_values_filtered", "Values its storage rules did not store", status,
                HistorianStatus::valuesFiltered);
        historianCounter(meters, "historian_rows_written", "Rows handed to the historian's store-and-forward channel",
                status, HistorianStatus::rowsSubmitted);
        historianCounter(meters, "historian_rows_rejected", "Rows the channel refused or failed to store (lost)",
                status, HistorianStatus::rowsRejected);
        meters.gauge("historian_rows_pending", "Rows waiting for their batch to be handed on", Tags.empty(), status,
                s -> s.get().rowsPending());
    }

    private static void historianCounter(Meters meters, String name, String description,
                                         Supplier<HistorianStatus> status, ToDoubleFunction<HistorianStatus> value) {
        meters.counter(name, description, Tags.empty(), status, s -> value.applyAsDouble(s.get()));
    }

    /** Per history table, tagged {@code table}: how far QuestDB's WAL apply trails, and whether it stopped. */
    static void bindWal(Meters meters, Supplier<List<WalTableStatus>> status, String table) {
        Tags tags = Tags.of("table", table);
        meters.gauge("historian_wal_lag_transactions", "Transactions committed but not yet applied to the table",
                tags, status, s -> wal(s, table).map(w -> (double) Math.max(0, w.sequencerTxn() - w.writerTxn()))
                        .orElse(0.0));
        meters.gauge("historian_wal_suspended", "1 while the table's WAL apply is suspended", tags, status,
                s -> wal(s, table).map(w -> w.suspended() ? 1.0 : 0.0).orElse(0.0));
    }

    private static Optional<WalTableStatus> wal(Supplier<List<WalTableStatus>> status, String table) {
        return status.get().stream().filter(w -> w.table().equals(table)).findFirst();
    }

    /** Per pipeline, tagged {@code pipeline}; lifetime totals kept across restarts. */
    static void bindPipeline(Meters meters, Function<String, Optional<PipelineStatus>> statuses, String id) {
        Tags tags = Tags.of("pipeline", id);
        pipelineCounter(meters, "pipeline_events", "Events its trigger delivered", tags, statuses, id,
                PipelineStatus::events);
        pipelineCounter(meters, "pipeline_events_filtered", "Events its filter let pass no output", tags, statuses,
                id, PipelineStatus::filtered);
        pipelineCounter(meters, "pipeline_events_emitted", "Events that produced their outputs", tags, statuses, id,
                PipelineStatus::emitted);
        pipelineCounter(meters, "pipeline_events_failed", "Events whose filter, transform or mapping failed (lost)",
                tags, statuses, id, PipelineStatus::failed);
        pipelineCounter(meters, "pipeline_items_refused", "Output items a channel refused (lost)", tags, statuses, id,
                PipelineStatus::refused);
    }

    private static void pipelineCounter(Meters meters, String name, String description, Tags tags,
                                        Function<String, Optional<PipelineStatus>> statuses, String id,
                                        ToDoubleFunction<PipelineStatus> value) {
        meters.counter(name, description, tags, statuses,
                s -> s.apply(id).map(value::applyAsDouble).orElse(0.0));
    }
}
