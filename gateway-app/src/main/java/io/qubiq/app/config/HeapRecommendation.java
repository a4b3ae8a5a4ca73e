package io.qubiq.app.config;

import io.qubiq.app.devices.DeviceKinds;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.historian.HistorianConfig;
import io.qubiq.pipeline.trigger.TagChangeTrigger;
import io.qubiq.storeforward.ChannelConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The heap a configuration needs, estimated from what the gateway keeps in memory when every
 * bounded structure is full, with the reasoning, for {@code qubiq check-config}. The launcher's
 * default ({@value #LAUNCHER_DEFAULT_MIB} MiB, {@code QUBIQ_HEAP}) covers the demo and a few
 * hundred tags; this says when a configuration needs more.
 *
 * <p>The formula (docs/operations.md, "Memory", states the same):
 * <pre>
 * live   = base                                              {@value #BASE_MIB} MiB: classes' data, console, clients, journals
 *        + demo plant, when configured                       {@value #DEMO_PLANT_MIB} MiB: its OPC UA server and MQTT broker
 *        + tags x {@value #BYTES_PER_TAG} B                                     latest values, subscriptions, per-tag state
 *        + historian queue x {@value #BYTES_PER_QUEUED_VALUE} B                             tag-bus queue, full
 *        + pipelines x {@value TagChangeTrigger#QUEUE_CAPACITY} x {@value #BYTES_PER_QUEUED_VALUE} B                   one trigger queue each, full
 *        + min(tags x live_tail_samples_per_tag, live_tail_max_samples) x {@value #BYTES_PER_TAIL_SAMPLE} B
 *        + channels x {@value #BATCHES_PER_CHANNEL} x batch_max_bytes                 hand-off, batch in flight, read-ahead, decoded copy
 * heap   = max(launcher default, 2 x live, rounded up to {@value #ROUND_MIB} MiB)
 * </pre>
 * Tags are what each connection's kind estimates ({@code DeviceKind.tagEstimate}): the OPC UA tags
 * plus one per MQTT subscription; a subscription with a wildcard counts as {@value #TAGS_PER_WILDCARD}
 * tags (the topics it will match are not known in advance). Twice the
 * live set is the room a collector needs to reclaim garbage without running back to back. The
 * per-item sizes are measured object sizes rounded up (a queued value is a tag value, its two
 * timestamps, its boxed value and the queue's slot; a tail sample is four longs, see the historian's
 * SampleRing).
 */
public record HeapRecommendation(long heapMib, long liveMib, List<String> reasoning) {

    public static final long LAUNCHER_DEFAULT_MIB = 256;
    static final long BASE_MIB = 64;
    static final long DEMO_PLANT_MIB = 40;
    static final long BYTES_PER_TAG = 2048;
    static final long BYTES_PER_QUEUED_VALUE = 160;
    static final long BYTES_PER_TAIL_SAMPLE = 32;
    static final long BATCHES_PER_CHANNEL = 4;
    static final long TAGS_PER_WILDCARD = 100;
    static final long ROUND_MIB = 64;

    private static final long MIB = 1L << 20;

    public static HeapRecommendation of(GatewayConfig config) {
        List<String> lines = new ArrayList<>();
        long bytes = 0;

        bytes += part(lines, BASE_MIB * MIB, "base: the gateway's own structures, console, clients and journals");
        if (config.demoPlant().isPresent()) {
            bytes += part(lines, DEMO_PLANT_MIB * MIB, "demo plant: its OPC UA server and MQTT broker run in-process");
        }

        Map<String, Long> tagsByKind = new LinkedHashMap<>();
        DeviceKinds.all().forEach(kind -> tagsByKind.put(kind.title(), 0L));
        long wildcards = 0;
        for (DeviceConfig device : config.devices().values()) {
            DeviceKind.TagEstimate estimate = DeviceKinds.tagEstimate(device);
            wildcards += estimate.wildcards();
            tagsByKind.merge(DeviceKinds.of(device).title(), estimate.tags() + estimate.wildcards() * TAGS_PER_WILDCARD,
                    Long::sum);
        }
        long tags = tagsByKind.values().stream().mapToLong(Long::longValue).sum();
        String byKind = tagsByKind.entrySet().stream().map(kind -> kind.getValue() + " " + kind.getKey())
                .collect(Collectors.joining(", "));
        bytes += part(lines, tags * BYTES_PER_TAG, tags + " tags (" + byKind
                + (wildcards > 0 ? ", of which " + wildcards + " wildcard subscription(s) counted as "
                        + TAGS_PER_WILDCARD + " each" : "") + ") x " + BYTES_PER_TAG + " B");

        List<ChannelConfig> channels = new ArrayList<>();
        if (config.historian().isPresent()) {
            HistorianConfig historian = config.historian().get();
            bytes += part(lines, historian.queueCapacityValues() * BYTES_PER_QUEUED_VALUE,
                    "historian tag-bus queue, full: " + historian.queueCapacityValues() + " values x "
                            + BYTES_PER_QUEUED_VALUE + " B");
            long tailSamples = Math.min(tags * historian.liveTailSamplesPerTag(), historian.liveTailMaxSamples());
            bytes += part(lines, tailSamples * BYTES_PER_TAIL_SAMPLE, "live tail, full: min(" + tags + " tags x "
                    + historian.liveTailSamplesPerTag() + ", " + historian.liveTailMaxSamples() + ") = " + tailSamples
                    + " samples x " + BYTES_PER_TAIL_SAMPLE + " B");
            channels.add(historian.storeAndForward());
        }
        int pipelines = config.pipelines().size();
        if (pipelines > 0) {
            bytes += part(lines, pipelines * (long) TagChangeTrigger.QUEUE_CAPACITY * BYTES_PER_QUEUED_VALUE,
                    pipelines + " pipeline trigger queue(s), full: " + TagChangeTrigger.QUEUE_CAPACITY + " values x "
                            + BYTES_PER_QUEUED_VALUE + " B each");
        }
        config.outbound().values().forEach(outbound -> channels.add(outbound.storeAndForward()));
        channels.add(config.audit().storeAndForward());
        long channelBytes = channels.stream().mapToLong(c -> BATCHES_PER_CHANNEL * c.batchMaxBytes()).sum();
        bytes += part(lines, channelBytes, channels.size() + " store-and-forward channel(s) x " + BATCHES_PER_CHANNEL
                + " batches of batch_max_bytes (hand-off, in flight, read ahead, decoded)");

        long liveMib = ceilDiv(bytes, MIB);
        long doubled = ceilDiv(2 * liveMib, ROUND_MIB) * ROUND_MIB;
        long heapMib = Math.max(LAUNCHER_DEFAULT_MIB, doubled);
        lines.add("live set when every bound is full: " + liveMib + " MiB; twice that for the collector's room, rounded"
                + " up to " + ROUND_MIB + " MiB: " + doubled + " MiB"
                + (doubled < LAUNCHER_DEFAULT_MIB ? "; the launcher's default " + LAUNCHER_DEFAULT_MIB
                        + " MiB is enough" : ""));
        return new HeapRecommendation(heapMib, liveMib, List.copyOf(lines));
    }

    /** The text check-config prints. */
    public String describe() {
        StringBuilder text = new StringBuilder("recommended heap: " + heapMib + " MiB (start with QUBIQ_HEAP="
                + heapMib + "m ./qubiq run ..., or -Xmx" + heapMib + "m)\n");
        for (String line : reasoning) {
            text.append("  ").append(line).append('\n');
        }
        return text.toString();
    }

    private static long part(List<String> lines, long bytes, String what) {
        lines.add(String.format("%7.1f MiB  %s", bytes / (double) MIB, what));
        return bytes;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
