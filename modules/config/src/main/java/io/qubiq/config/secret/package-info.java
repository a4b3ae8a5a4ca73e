/**
 * Secrets entered in the console or the API: {@link io.qubiq.config.secret.SecretStore} keeps their values
 * in the data directory, readable by the gateway's user only, and the configuration file refers to them as
 * {@code ${secret:NAME}}, so neither the file nor its revisions hold them in clear.
 */
package io.qubiq.config.secret;
