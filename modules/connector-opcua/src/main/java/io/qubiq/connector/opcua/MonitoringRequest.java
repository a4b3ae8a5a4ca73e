package io.qubiq.connector.opcua;

import java.util.Optional;

/**
 * What the connector asks the server for one tag's monitored item: the tag's own settings where it
 * has them, else the connection's {@link OpcUaTagDefaults}. The one place that decides the queue
 * size rule and whether what the server granted can keep every change. Immutable.
 *
 * @param samplingIntervalMs requested sampling interval (-1: the publishing interval, 0: fastest)
 * @param queueSize requested queue size
 * @param deadbandAbsolute absolute deadband, if any
 * @param deadbandPercent percent deadband, if any (never together with an absolute one)
 */
record MonitoringRequest(double samplingIntervalMs, int queueSize, Optional<Double> deadbandAbsolute,
                         Optional<Double> deadbandPercent) {

    /** A sampling interval of 0 (fastest) counts as this for the queue rule. */
    static final double FASTEST_ASSUMED_MS = 10;
    static final int MAX_QUEUE = 10_000;
    /** How late a publish may come without the server dropping samples, at least. */
    static final double LATE_PUBLISH_COVERED_MS = 1_000;

    static MonitoringRequest of(OpcUaTagConfig tag, OpcUaTagDefaults defaults, long publishingIntervalMs) {
        long sampling = tag.samplingIntervalMs().orElse(defaults.samplingIntervalMs());
        int queue = tag.queueSize().or(defaults::queueSize)
                .orElseGet(() -> coveringQueueSize(sampling, publishingIntervalMs));
        boolean own = tag.deadbandAbsolute().isPresent() || tag.deadbandPercent().isPresent();
        return new MonitoringRequest(sampling, queue,
                own ? tag.deadbandAbsolute() : defaults.deadbandAbsolute(),
                own ? tag.deadbandPercent() : defaults.deadbandPercent());
    }

    /**
     * The rule for a queue left out: room for two publishing intervals of samples or one second of
     * them, whichever is more, {@code ceil(max(2 * publishing, 1000) / sampling)}, between 1 and
     * {@value #MAX_QUEUE}; sampling -1 is the publishing interval, 0 counts as
     * {@value #FASTEST_ASSUMED_MS} ms. The second is for a publish that runs late on a loaded server or
     * client: with two intervals only, a 100 ms subscription lost a change of every tag whenever a
     * publish came more than 100 ms late (end-to-end target runs on a loaded host).
     */
    static int coveringQueueSize(long samplingIntervalMs, long publishingIntervalMs) {
        double sampling = samplingIntervalMs < 0 ? publishingIntervalMs
                : Math.max(samplingIntervalMs, FASTEST_ASSUMED_MS);
        double queue = Math.ceil(Math.max(2.0 * publishingIntervalMs, LATE_PUBLISH_COVERED_MS) / sampling);
        return (int) Math.max(1, Math.min(MAX_QUEUE, queue));
    }

    /**
     * Whether an item granted {@code revisedSamplingMs} and {@code revisedQueue} in a subscription
     * publishing every {@code revisedPublishingMs} drops changes: the server samples more often
     * than its queue holds between two publishes ({@code queue < publishing / sampling}).
     */
    static boolean missesChanges(double revisedSamplingMs, long revisedQueue, double revisedPublishingMs) {
        return revisedSamplingMs > 0 && revisedQueue < revisedPublishingMs / revisedSamplingMs;
    }
}
