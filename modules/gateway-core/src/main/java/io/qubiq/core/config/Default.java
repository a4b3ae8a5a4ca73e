package io.qubiq.core.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value a key takes when the file leaves it out, written as it would be written in YAML
 * ({@code "8080"}, {@code "true"}, {@code "drop_oldest"}). The binder parses it exactly like file
 * input, so a default can never have a type the file could not. A component without a default is
 * required; a nested record without one is built from its own defaults.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Default {
    String value();
}
