package io.qubiq.app.metrics;

import io.micrometer.core.instrument.Tags;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ChannelStatus;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The store-and-forward meters of one channel ({@code sf_*}), read from its status at scrape time.
 * Every channel gets the same names, told apart by the {@code connection} tag.
 */
final class ChannelMeters {

    private ChannelMeters() {
    }

    static void bind(Meters meters, String connection, Supplier<ChannelStatus> status) {
        Tags tags = Tags.of("connection", connection);
        gauge(meters, "sf_buffer_bytes", "Bytes buffered", tags, status, ChannelStatus::bufferedBytes);
        gauge(meters, "sf_buffer_items", "Items buffered", tags, status, ChannelStatus::bufferedItems);
        gauge(meters, "sf_buffer_max_bytes", "The buffer's byte limit", tags, status, ChannelStatus::maxBytes);
        gauge(meters, "sf_buffer_fill_ratio", "Bytes buffered as a fraction of the limit", tags, status,
                s -> s.fillPercent() / 100.0);
        gauge(meters, "sf_oldest_item_age_seconds", "Age of the oldest buffered item", tags, status,
                s -> s.oldestItemAge().map(d -> d.toMillis() / 1000.0).orElse(0.0));
        gauge(meters, "sf_in_bytes_per_second", "Smoothed rate of bytes entering the channel", tags, status,
                ChannelStatus::inBytesPerSecond);
        gauge(meters, "sf_out_bytes_per_second", "Smoothed rate of bytes delivered", tags, status,
                ChannelStatus::outBytesPerSecond);
        gauge(meters, "sf_quarantine_items", "Items in quarantine", tags, status, ChannelStatus::quarantineItems);
        gauge(meters, "sf_quarantine_bytes", "Bytes the quarantine occupies", tags, status,
                ChannelStatus::quarantineBytes);
        gauge(meters, "sf_pressure_alarm", "1 while the buffer-pressure alarm is raised", tags, status,
                s -> s.pressureAlarm() ? 1 : 0);
        gauge(meters, "sf_refusing", "1 while the buffer is full and refusing new items", tags, status,
                s -> s.refusing() ? 1 : 0);
        counter(meters, "sf_items_in", "Items handed to the channel", tags, status, ChannelStatus::itemsIn);
        counter(meters, "sf_items_delivered", "Items confirmed written at the destination", tags, status,
                ChannelStatus::itemsDelivered);
        counter(meters, "sf_items_dropped", "Items discarded by drop-oldest at the limit", tags, status,
                ChannelStatus::itemsDropped);
        counter(meters, "sf_items_refused", "Items turned away by a full buffer with the refuse policy", tags,
                status, ChannelStatus::itemsRefused);
        counter(meters, "sf_items_quarantined", "Items set aside in quarantine", tags, status,
                ChannelStatus::itemsQuarantined);
        counter(meters, "sf_delivery_attempts", "Item write attempts, successful or not", tags, status,
                ChannelStatus::deliveryAttempts);
        for (ChannelState state : ChannelState.values()) {
            meters.gauge("sf_state", "1 for the channel's current state", tags.and("state", state.name()), status,
                    s -> s.get().state() == state ? 1 : 0);
        }
    }

    private static void gauge(Meters meters, String name, String description, Tags tags,
                              Supplier<ChannelStatus> status, ToDoubleFunction<ChannelStatus> value) {
        meters.gauge(name, description, tags, status, s -> value.applyAsDouble(s.get()));
    }

    private static void counter(Meters meters, String name, String description, Tags tags,
                                Supplier<ChannelStatus> status, ToDoubleFunction<ChannelStatus> value) {
        meters.counter(name, description, tags, status, s -> value.applyAsDouble(s.get()));
    }
}
