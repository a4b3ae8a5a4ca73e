package io.qubiq.demoplant;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagPublisher;
import io.qubiq.core.tag.TagValue;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Keeps the latest value of every tag; safe for the connector's threads. */
final class RecordingPublisher implements TagPublisher {

    private final Map<TagPath, TagValue> latest = new ConcurrentHashMap<>();

    @Override
    public void publish(TagValue value) {
        latest.put(value.path(), value);
    }

    Optional<TagValue> latest(String path) {
        return Optional.ofNullable(latest.get(TagPath.of(path)));
    }

    /** The latest value of {@code path} if it is good, as a double. */
    Optional<Double> good(String path) {
        return latest(path).filter(v -> v.quality().isGood()).flatMap(TagValue::asDouble);
    }
}
