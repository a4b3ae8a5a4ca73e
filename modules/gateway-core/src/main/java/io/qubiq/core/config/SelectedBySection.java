package io.qubiq.core.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a sealed configuration interface: the variant is selected by which section the mapping holds,
 * not by a {@code type:} key. Each {@code @Variant("sql")} record has a component named after its
 * variant ({@code sql}), the section itself; its other components are keys beside the section.
 * {@code outbound.plant-db.sql: {...}} binds the {@code @Variant("sql")} record. Exactly one section
 * must be present; none, two, or an unknown one is a configuration problem naming the variants.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SelectedBySection {
}
