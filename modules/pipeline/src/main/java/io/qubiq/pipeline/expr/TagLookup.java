package io.qubiq.pipeline.expr;

import io.qubiq.core.tag.TagValue;
import java.util.Optional;

/** Reads a tag's latest value for the {@code tag(path)} function. Must be safe for concurrent calls. */
@FunctionalInterface
public interface TagLookup {

    Optional<TagValue> latest(String path);

    /** No tags at all: for validation, where only the shape of an expression matters. */
    static TagLookup none() {
        return path -> Optional.empty();
    }
}
