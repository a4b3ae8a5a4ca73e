package io.qubiq.console;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a record component of the API's JSON: the value may be written as {@code null}. The OpenAPI
 * description then allows null; without it, only {@code Optional} components may be null.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface MayBeNull {
}
