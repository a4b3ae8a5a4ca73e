package io.qubiq.core.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names one implementation of a sealed configuration interface. The YAML selects it with the
 * interface's discriminator key (default {@code type}): {@code type: opcua} binds the permitted
 * record annotated {@code @Variant("opcua")}. On a {@link SelectedBySection} interface the name is
 * the key of the record's own section instead.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Variant {
    String value();
}
