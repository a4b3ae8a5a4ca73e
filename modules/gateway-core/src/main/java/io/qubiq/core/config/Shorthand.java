package io.qubiq.core.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a configuration record: a plain scalar written where the record is expected stands for a
 * mapping with only the named key, so {@code - ns=2;s=Speed} reads as {@code - {node_id: ns=2;s=Speed}}.
 * Every other key takes its default; the record's own checks apply as usual.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Shorthand {
    /** The key (snake_case, as written in YAML) that the scalar is the value of. */
    String value();
}
