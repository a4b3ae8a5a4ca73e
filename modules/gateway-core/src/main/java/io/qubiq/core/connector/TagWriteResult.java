package io.qubiq.core.connector;

import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;

/** The device's verdict on one tag write: its status code, and a message for the operator. */
public record TagWriteResult(TagPath tag, Quality status, String message) {

    public boolean accepted() {
        return status.isGood();
    }
}
