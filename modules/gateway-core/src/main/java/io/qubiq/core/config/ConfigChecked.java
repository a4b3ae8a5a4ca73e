package io.qubiq.core.config;

import java.util.List;

/**
 * A configuration record whose keys constrain each other (a low-water mark below a high-water
 * mark, say) implements this. The binder calls it after every key of the record bound cleanly and
 * reports each returned problem with the record's file position and key path.
 */
public interface ConfigChecked {

    /** One cross-key problem: the offending key (relative to this record, snake_case) and why. */
    record Violation(String key, String message) {
    }

    /** Every violation at once; an empty list when the record is consistent. */
    List<Violation> violations();
}
