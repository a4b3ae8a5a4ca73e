/**
 * Edits a configuration file's text in place ({@link io.qubiq.config.edit.YamlTextEditor}), by
 * {@link io.qubiq.config.edit.KeyPath}, keeping comments, key order, quoting and {@code ${VARIABLE}}
 * references: the way the console and the API will change the file the operator keeps. It writes
 * text only; whether the result is a valid configuration is the loader's to say, and writing the file
 * atomically with a revision is the caller's.
 */
package io.qubiq.config.edit;
