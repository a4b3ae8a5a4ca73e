package io.qubiq.core.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a record component whose type is a configuration record: that record's keys are written at the
 * same level as the enclosing record's own, as if they were declared there. It lets a block of keys
 * that several sections share (an MQTT broker's {@code host}, {@code port}, {@code tls}, …) be declared
 * once, in one record, without giving the file a new nesting level. The contract:
 * <ul>
 *   <li><b>The file does not change.</b> The inline record's keys are bound from the enclosing record's
 *       mapping under their own names, in its declaration order, at the place of the component; the
 *       component's own name is never a key. Its keys keep their {@code @Doc}, {@code @Default},
 *       {@code @Range} and {@code @Secret}, and {@code Optional}, nested records and the rest work as
 *       anywhere else. An inline record may itself hold {@code @Inline} components.</li>
 *   <li><b>Keys stay unique.</b> A key of the inline record that the enclosing record (or another inline
 *       record in it) also declares, an inline record that includes itself, and {@code @Inline} on
 *       anything but a plain record type (not {@code Optional}, a list, a map or a sealed interface) or
 *       together with {@code @Default}, {@code @Range} or {@code @Secret} are declaration mistakes:
 *       they fail with {@code IllegalArgumentException} before any file is read.</li>
 *   <li><b>Everything sees the flat keys.</b> An unknown key is checked against the enclosing record's
 *       keys and the inline ones together (with the same "did you mean" suggestion); every problem, and
 *       every key whose value came from the environment or the secret store, names the flat key path
 *       ({@code devices.plc.mqtt.port}, not {@code …mqtt.endpoint.port}); a missing required key is
 *       reported where the enclosing record's would be. A secret key of the inline record is masked, and
 *       its secret reference kept, at its flat path. The JSON schema, the generated reference, the
 *       effective configuration, the masked tree and the diff list the inline keys among the enclosing
 *       record's, at the component's place, exactly as if they were declared there.</li>
 *   <li><b>Checks run at both levels, reported flat.</b> If the inline record is {@code ConfigChecked},
 *       its violations are reported at the flat keys they name; a problem of its constructor is
 *       reported at the enclosing record's key path. The enclosing record is built only when the inline
 *       one was.</li>
 * </ul>
 * In Java the values are reached through the component ({@code config.endpoint().host()}); the
 * component's {@code @Doc}, if any, is for readers of the code only.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Inline {
}
