package io.qubiq.app.devices;

import io.qubiq.app.lifecycle.DegradedPartSource;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.tagbus.TagBus;
import java.util.List;

/**
 * The tag-bus subscribers whose delivery thread failed (an {@code Error} from their consumer: the
 * historian, a pipeline) and has not delivered normally since its restart, each
 * listed as {@code tag-bus:<subscriber>} (FAILED) with what killed it. Safe from any thread.
 */
public final class SubscriberParts implements DegradedPartSource {

    private final TagBus bus;

    public SubscriberParts(TagBus bus) {
        this.bus = bus;
    }

    @Override
    public List<DegradedPart> degradedParts() {
        return bus.failingSubscribers().entrySet().stream()
                .map(failing -> new DegradedPart("tag-bus:" + failing.getKey(), "FAILED", "subscriber failed ("
                        + failing.getValue() + "); its delivery thread is restarted with backoff"))
                .toList();
    }
}
