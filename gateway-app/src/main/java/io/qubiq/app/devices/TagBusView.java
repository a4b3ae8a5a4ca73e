package io.qubiq.app.devices;

import io.qubiq.console.TagView;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.tagbus.TagBus;
import java.util.List;
import java.util.Optional;

/** The console's view of the latest tag values, read from the tag bus's latest-value table. */
public final class TagBusView implements TagView {

    private final TagBus bus;

    public TagBusView(TagBus bus) {
        this.bus = bus;
    }

    @Override
    public List<TagValue> latest() {
        return bus.latestValues().snapshot();
    }

    @Override
    public Optional<TagValue> latest(TagPath path) {
        return bus.latestValues().latest(path);
    }
}
