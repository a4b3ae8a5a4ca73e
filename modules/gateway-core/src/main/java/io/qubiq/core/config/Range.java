package io.qubiq.core.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Inclusive bounds for an integer or decimal key; checked by the binder, listed in the docs. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Range {
    long min() default Long.MIN_VALUE;

    long max() default Long.MAX_VALUE;
}
