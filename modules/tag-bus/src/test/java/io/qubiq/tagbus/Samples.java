package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;

import java.time.Instant;

/** Tag values for tests: the n-th sample of a tag carries the long {@code n}. */
final class Samples {

    private Samples() {
    }

    static TagValue sample(String path, long n) {
        return TagValue.good(TagPath.of(path), n, Instant.EPOCH.plusMillis(n));
    }

    static long number(TagValue value) {
        return (Long) value.value();
    }
}
