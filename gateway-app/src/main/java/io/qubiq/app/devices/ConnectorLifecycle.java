package io.qubiq.app.devices;

import io.qubiq.core.tag.TagPublisher;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts and stops the device connectors and remembers which ones failed to start. A connector's
 * {@code start} returns at once (it connects and reconnects on its own threads); one whose start
 * throws is logged at ERROR once, recorded with its reason and marked settled for
 * {@link DeviceReadiness}, and the other connections start and run. Stopping closes every
 * connector; one that does not close cleanly is logged and the rest are closed all the same.
 *
 * <p>Threading: {@link #start} and {@link #stop} run on the lifecycle thread, {@link #startOne} and
 * {@link #closeOne} with {@link DeviceConnections}'s lock held (a connection changed live);
 * {@link #startFailure} is safe from any thread.
 */
final class ConnectorLifecycle {

    /** Logs under the device connections' name, as operators know it. */
    private static final Logger log = LoggerFactory.getLogger(DeviceConnections.class);

    private final Map<String, DeviceConnections.Entry> entries;
    private final TagPublisher publisher;
    private final DeviceReadiness readiness;
    /** The connections whose start threw, with the reason; written by the lifecycle thread. */
    private final Map<String, String> failedToStart = new ConcurrentHashMap<>();

    ConnectorLifecycle(Map<String, DeviceConnections.Entry> entries, TagPublisher publisher, DeviceReadiness readiness) {
        this.entries = entries;
        this.publisher = publisher;
        this.readiness = readiness;
    }

    void start() {
        readiness.started();
        entries.forEach(this::startOne);
    }

    /** Starts one connection's connector; a start that throws is recorded as at gateway start. */
    void startOne(String id, DeviceConnections.Entry entry) {
        failedToStart.remove(id);
        log.info("Device connection {} ({}, {} tags) starting", id, entry.type(), entry.tags().size());
        try {
            entry.connector().start(publisher);
        } catch (RuntimeException e) {
            String reason = e.getMessage() != null ? e.getMessage() : e.toString();
            failedToStart.put(id, reason);
            readiness.failedToStart(id);
            log.error("Device connection {} failed to start: {}; the other connections run without it", id,
                    reason);
            log.debug("Start-up failure of device connection {}", id, e);
        }
    }

    /** Why connection {@code id} failed to start, or empty when it started (or has not been started). */
    Optional<String> startFailure(String id) {
        return Optional.ofNullable(failedToStart.get(id));
    }

    void stop() {
        entries.forEach(this::closeOne);
    }

    /** Closes one connection's connector; one that does not close cleanly is logged. */
    void closeOne(String id, DeviceConnections.Entry entry) {
        try {
            entry.connector().close();
        } catch (RuntimeException e) {
            log.warn("Device connection {} did not close cleanly: {}", id, e.toString());
        }
        failedToStart.remove(id);
    }
}
