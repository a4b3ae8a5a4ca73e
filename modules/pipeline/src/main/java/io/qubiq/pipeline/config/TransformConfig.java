package io.qubiq.pipeline.config;

import io.qubiq.core.config.Doc;

/** One named value computed from the event, available to later transforms and to the outputs. */
@Doc("A named value computed from the event; later transforms and the outputs can read it.")
public record TransformConfig(
        @Doc("The variable name (letters, digits and _, starting with a letter); must not shadow a trigger"
                + " variable.")
        String name,

        @Doc("The expression that computes it. See docs/pipelines.md for the language.")
        String expression) {
}
