package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.core.config.Doc;
import java.util.Map;

/**
 * The root a "Test connection" body for an outbound connection is bound to: one entry under
 * {@code outbound}, so the settings are checked by the same loader and rules as the configuration file and
 * every problem names the key path the file would ({@code outbound.<id>.sql.jdbc_url}). Immutable.
 */
@Doc("Outbound connection settings to be tested.")
public record TestedOutbound(
        @Doc("The connection to test, under its id.")
        Map<String, OutboundConfig> outbound) {
}
