/**
 * Qubiq's shared vocabulary, JDK only: tags and their values ({@code tag}), device connectors
 * ({@code connector}), outbound sinks ({@code sink}), connection health ({@code health}), typed
 * failures ({@code error}), component lifecycle ({@code lifecycle}), configuration declaration
 * ({@code config}), monotonic time for intervals ({@code time}) and log-safe text ({@code text}). Every other
 * module depends on this one; it depends on nothing.
 */
package io.qubiq.core;
