package io.qubiq.connector.mqtt;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.core.tag.TagValue;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every published value, in order; safe for the connector's threads. */
final class RecordingPublisher implements TagPublisher {

    private final List<TagValue> values = new CopyOnWriteArrayList<>();

    @Override
    public void publish(TagValue value) {
        values.add(value);
    }

    Optional<TagValue> latest(String path) {
        TagPath tag = TagPath.of(path);
        for (int i = values.size() - 1; i >= 0; i--) {
            if (values.get(i).path().equals(tag)) {
                return Optional.of(values.get(i));
            }
        }
        return Optional.empty();
    }

    List<TagValue> of(String path) {
        TagPath tag = TagPath.of(path);
        return values.stream().filter(v -> v.path().equals(tag)).toList();
    }

    List<TagValue> all() {
        return List.copyOf(values);
    }
}
