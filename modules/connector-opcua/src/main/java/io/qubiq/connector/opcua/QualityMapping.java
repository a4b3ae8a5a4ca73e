package io.qubiq.connector.opcua;

import io.qubiq.core.tag.Quality;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;

/**
 * OPC UA status codes to gateway qualities. The gateway's quality is an OPC UA status code, so the
 * 32-bit code passes through unchanged (including its info bits, such as overflow). Stateless.
 */
public final class QualityMapping {

    private QualityMapping() {
    }

    public static Quality of(StatusCode status) {
        return status == null ? Quality.GOOD : new Quality((int) status.value());
    }

    /** The quality a failed request leaves: the server's status code, or a communication error. */
    public static Quality ofFailure(Throwable failure) {
        return UaException.extractStatusCode(failure).map(QualityMapping::of).orElse(Quality.BAD_COMMUNICATION_ERROR);
    }
}
