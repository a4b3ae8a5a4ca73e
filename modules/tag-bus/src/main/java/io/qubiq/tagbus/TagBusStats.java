package io.qubiq.tagbus;

import java.util.List;

/**
 * The bus's counters at one moment.
 *
 * @param published   values accepted by {@link TagBus#publish} since start
 *                    ({@code tagbus_values_published_total})
 * @param tags        tags in the latest-value table ({@code tagbus_tags})
 * @param subscribers each current subscriber's counters, sorted by name
 */
public record TagBusStats(long published, int tags, List<SubscriberStats> subscribers) {

    public TagBusStats {
        subscribers = List.copyOf(subscribers);
    }
}
