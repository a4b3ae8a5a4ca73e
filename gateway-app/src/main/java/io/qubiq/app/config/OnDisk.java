package io.qubiq.app.config;

import io.qubiq.config.revision.ConfigRevisions;
import io.qubiq.console.RequestFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The configuration file's text and token as read at one moment, and how the API names a revision:
 * {@code sha256:<token>}; a client may name it by its token alone. Immutable.
 */
record OnDisk(String text, String token) {

    /** What a revision's name starts with: the hash its token is. */
    static final String SHA = "sha256:";

    /**
     * The file as it is now.
     *
     * @throws RequestFailure.Fault it cannot be read
     */
    static OnDisk read(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            return new OnDisk(new String(bytes, StandardCharsets.UTF_8), ConfigRevisions.token(bytes));
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot read the configuration file " + file + ": " + e.getMessage());
        }
    }

    /** The API's name of the revision whose token is {@code token}. */
    static String revisionOf(String token) {
        return SHA + token;
    }

    /** The API's name of this text's revision. */
    String revision() {
        return revisionOf(token);
    }

    /** Whether {@code revision} names this text (by its name or its token). */
    boolean named(String revision) {
        return revision.equals(revision()) || revision.equals(token);
    }
}
