/** Text that crosses a trust boundary: {@link io.qubiq.core.text.LogSafe} for user-supplied values in log lines. */
package io.qubiq.core.text;
