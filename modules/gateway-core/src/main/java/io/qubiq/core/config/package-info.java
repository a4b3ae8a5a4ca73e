/**
 * How configuration is declared: each component owns a record whose components carry {@link
 * io.qubiq.core.config.Doc}, {@link io.qubiq.core.config.Default} and, where they apply, {@link
 * io.qubiq.core.config.Range} and {@link io.qubiq.core.config.Secret}. Keys in YAML are the
 * components' names in snake_case; the unit of every quantity is part of its name
 * ({@code grace_period_ms}, {@code max_bytes}). Binding and validation live in the config module.
 */
package io.qubiq.core.config;
