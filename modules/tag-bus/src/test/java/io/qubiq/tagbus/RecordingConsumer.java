package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A consumer that keeps every value it receives, in order; safe to read from the test thread. */
final class RecordingConsumer implements Consumer<List<TagValue>> {

    private final List<TagValue> received = new ArrayList<>();

    @Override
    public synchronized void accept(List<TagValue> batch) {
        received.addAll(batch);
    }

    synchronized List<TagValue> received() {
        return List.copyOf(received);
    }

    synchronized int count() {
        return received.size();
    }

    /** The numbers of the samples received for {@code path}, in delivery order. */
    synchronized List<Long> numbersOf(String path) {
        TagPath tag = TagPath.of(path);
        List<Long> numbers = new ArrayList<>();
        for (TagValue value : received) {
            if (value.path().equals(tag)) {
                numbers.add(Samples.number(value));
            }
        }
        return numbers;
    }
}
