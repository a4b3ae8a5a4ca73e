package io.qubiq.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ChannelStatus;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GatewayMetricsTest {

    static ChannelStatus status(String connection, ChannelState state, long buffered) {
        return new ChannelStatus(connection, state, ConnectionState.UP, buffered * 100, buffered, 1000, buffered * 10.0, 80, 60,
                Optional.of(Duration.ofSeconds(90)), 50, 20, 1000, 900, 5, 7, 2, 1200, 2, 400, true, true,
                Optional.empty(), Optional.empty());
    }

    @Test
    void everyChannelExportsTheSameMetricNamesLabelledByConnection() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        GatewayMetrics metrics = new GatewayMetrics(registry);
        metrics.bindChannel("historian", () -> status("historian", ChannelState.DRAINING, 7));
        metrics.bindChannel("plant-sql", () -> status("plant-sql", ChannelState.GATED, 3));

        String text = registry.scrape();
        for (String connection : new String[] {"historian", "plant-sql"}) {
            for (String name : new String[] {"sf_buffer_bytes", "sf_buffer_items", "sf_buffer_max_bytes",
                    "sf_oldest_item_age_seconds", "sf_items_in_total", "sf_items_delivered_total",
                    "sf_items_dropped_total", "sf_items_refused_total", "sf_items_quarantined_total", "sf_delivery_attempts_total",
                    "sf_quarantine_items", "sf_quarantine_bytes", "sf_pressure_alarm", "sf_refusing"}) {
                assertThat(text).as(name + " for " + connection).contains(name + "{connection=\"" + connection + "\"");
            }
        }
        assertThat(text).contains("sf_buffer_items{connection=\"historian\"} 7.0")
                .contains("sf_oldest_item_age_seconds{connection=\"historian\"} 90.0")
                .contains("sf_items_refused_total{connection=\"historian\"} 7.0")
                .contains("sf_state{connection=\"plant-sql\",state=\"GATED\"} 1.0")
                .contains("sf_state{connection=\"plant-sql\",state=\"DRAINING\"} 0.0");
    }
}
