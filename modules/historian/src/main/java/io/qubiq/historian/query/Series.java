package io.qubiq.historian.query;

import io.qubiq.core.tag.TagPath;
import java.util.List;

/** The points of one tag, oldest first. */
public record Series(TagPath tag, List<Point> points) {

    public Series {
        points = List.copyOf(points);
    }
}
