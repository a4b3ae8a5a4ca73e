package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;

import java.util.Objects;

/**
 * Which tags a subscriber receives. Evaluated on the publisher's thread for every published value,
 * so an implementation must be fast, side-effect free and safe for concurrent calls.
 */
@FunctionalInterface
public interface TagFilter {

    boolean accepts(TagPath path);

    /** Every tag. */
    static TagFilter all() {
        return path -> true;
    }

    /**
     * The tag {@code prefix} itself and every tag beneath it, by whole segments:
     * {@code plant1} accepts {@code plant1/line2/temp} but not {@code plant10/line2/temp}.
     */
    static TagFilter under(TagPath prefix) {
        Objects.requireNonNull(prefix, "prefix");
        return path -> path.equals(prefix) || path.isUnder(prefix);
    }
}
