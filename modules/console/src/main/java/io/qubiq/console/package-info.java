/**
 * The web console and its HTTP API. This module reads and acts on the gateway only through access
 * interfaces ({@link io.qubiq.console.StatusView}, {@link io.qubiq.console.StoreForwardAccess}, ...) and
 * the meter registry; it owns no gateway state and knows no concrete component. It owns the HTTP
 * contract: the access interfaces answer with records declared here and fail with
 * {@link io.qubiq.console.RequestFailure} kinds, which only this module turns into HTTP statuses; every
 * route declares its {@link io.qubiq.console.Reply}, from which the OpenAPI description is generated.
 * Routes: the static console ({@code ui/}), {@code /health}, {@code /metrics}, the REST API under
 * {@code /api/v1} (see docs/api.md).
 */
package io.qubiq.console;
