package io.qubiq.config.edit;

import java.util.Objects;

/**
 * A value an edit writes as a reference the loader expands, such as {@code ${secret:NAME}}: written as
 * it is, where a {@link String} would have its {@code ${} escaped to stay a literal. Only the gateway
 * makes these (a secret it keeps); text from a user is always a {@link String}.
 */
public record Reference(String text) {

    public Reference {
        Objects.requireNonNull(text, "text");
        if (!text.startsWith("${") || !text.endsWith("}")) {
            throw new IllegalArgumentException("a reference is ${...}, not '" + text + "'");
        }
    }
}
