/**
 * The web console and its HTTP API. This module reads the gateway only through {@link
 * io.qubiq.console.StatusView} and the meter registry; it owns no gateway state and knows no
 * concrete component. Routes today: the static console ({@code ui/}), {@code /health},
 * {@code /metrics}.
 */
package io.qubiq.console;
