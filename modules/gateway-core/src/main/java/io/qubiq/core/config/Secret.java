package io.qubiq.core.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a key whose value must never be printed: error messages and effective-config dumps show
 * {@code ***} instead. Secrets usually come from the environment through {@code ${VAR}}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Secret {
}
