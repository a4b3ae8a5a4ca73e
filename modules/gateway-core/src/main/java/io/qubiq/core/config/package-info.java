/**
 * How configuration is declared: each component owns a record whose components carry {@link
 * io.qubiq.core.config.Doc}, {@link io.qubiq.core.config.Default} and, where they apply, {@link
 * io.qubiq.core.config.Range} and {@link io.qubiq.core.config.Secret}. Keys in YAML are the
 * components' names in snake_case; the unit of every quantity is part of its name
 * ({@code grace_period_ms}, {@code max_bytes}). A block of keys that several sections share is one
 * record, included {@link io.qubiq.core.config.Inline} where it is used: its keys stay at the level of
 * the record that includes it. Binding and validation live in the config module.
 */
package io.qubiq.core.config;
