package io.qubiq.console;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.util.List;
import java.util.Optional;

/** The latest value of every tag, read from the tag bus. Safe from any thread. */
public interface TagView {

    List<TagValue> latest();

    Optional<TagValue> latest(TagPath path);
}
