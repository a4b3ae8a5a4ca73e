/**
 * TLS support every client of the gateway shares: {@link io.qubiq.core.tls.TrustEverything}, what
 * {@code tls_verify: false} means (tests only).
 */
package io.qubiq.core.tls;
