package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last published value of every tag, whatever happened in subscribers' queues. Readable at any
 * time from any thread; written only by {@link TagBus#publish}. Holds one value per tag ever
 * published and never forgets a tag while the bus lives.
 */
public final class LatestValues {

    private final ConcurrentHashMap<TagPath, TagValue> byPath = new ConcurrentHashMap<>();

    LatestValues() {
    }

    void put(TagValue value) {
        byPath.put(value.path(), value);
    }

    public Optional<TagValue> latest(TagPath path) {
        return Optional.ofNullable(byPath.get(path));
    }

    /**
     * Every tag's latest value, sorted by path, as an immutable list. Each element is a value the tag
     * really had; under concurrent publishing the list is not one atomic cut across tags.
     */
    public List<TagValue> snapshot() {
        return byPath.values().stream()
                .sorted(Comparator.comparing(TagValue::path))
                .toList();
    }

    /** The number of distinct tags published so far. */
    public int size() {
        return byPath.size();
    }
}
