package io.qubiq.sink.questdb;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a questdb-client failure into the failure class the channel acts on. The client reports
 * everything as {@code LineSenderException} with a message, so this reads the message: the
 * {@code [http-status=NNN ..., line: N]} suffix of a server answer, or the transport error after
 * {@code Connection Failed:}. With ILP over HTTP a rejected request commits nothing, so a permanent
 * failure never claims a partial write.
 *
 * <table>
 *   <caption>Classification</caption>
 *   <tr><th>Client message</th><th>Class</th></tr>
 *   <tr><td>could not connect, could not resolve host, peer disconnect</td><td>transient</td></tr>
 *   <tr><td>timed out, Request timed out (after connecting)</td><td>unknown outcome</td></tr>
 *   <tr><td>could not start TLS session</td><td>configuration ({@code tls})</td></tr>
 *   <tr><td>HTTP 5xx, 408, 429</td><td>transient</td></tr>
 *   <tr><td>HTTP 401, 403</td><td>configuration (credentials)</td></tr>
 *   <tr><td>HTTP 404, 405, 421</td><td>configuration ({@code address})</td></tr>
 *   <tr><td>other HTTP 4xx</td><td>permanent; the row of {@code line: N} when given</td></tr>
 *   <tr><td>anything else during flush</td><td>unknown outcome</td></tr>
 * </table>
 *
 * <p>Stateless and thread-safe.
 */
final class FailureClassifier {

    private static final Pattern STATUS = Pattern.compile("\\[http-status=(\\d{3})");
    private static final Pattern LINE = Pattern.compile("line: (\\d+)]");
    private static final String CONNECTION_FAILED = "Connection Failed";

    private final String credentialKey;

    FailureClassifier(QuestDbSinkConfig config) {
        this.credentialKey = config.token().isPresent() ? "token" : "username";
    }

    /** A failure of {@code flush()}: the request may have been sent. */
    GatewayException flushFailed(RuntimeException e, int batchSize) {
        String message = String.valueOf(e.getMessage());
        Matcher status = STATUS.matcher(message);
        if (status.find()) {
            return httpStatus(Integer.parseInt(status.group(1)), message, e, batchSize);
        }
        if (message.contains(CONNECTION_FAILED)) {
            return transport(message, e);
        }
        return new UnknownOutcomeException("QuestDB write failed without a verdict: " + message, e);
    }

    /** A failure while appending row {@code index} to the client's buffer: nothing was sent. */
    GatewayException appendFailed(RuntimeException e, int index) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("too large") || message.contains("buffer")) {
            return new PermanentException("QuestDB batch does not fit the client's buffer: " + message, e);
        }
        return new PermanentException("QuestDB client rejected row " + index + ": " + message,
                List.of(new PermanentException.RejectedItem(index, message)), e);
    }

    private GatewayException transport(String message, RuntimeException e) {
        String cause = message.substring(message.indexOf(CONNECTION_FAILED) + CONNECTION_FAILED.length());
        if (cause.contains("could not start TLS session")) {
            return new ConfigurationException("tls", "TLS handshake with QuestDB failed (certificate or"
                    + " protocol mismatch?): " + message, e);
        }
        if (cause.contains("timed out")) {
            return new UnknownOutcomeException("QuestDB did not answer in time; the write may have committed: "
                    + message, e);
        }
        return new TransientException("QuestDB unreachable: " + message, e);
    }

    private GatewayException httpStatus(int status, String message, RuntimeException e, int batchSize) {
        if (status >= 500 || status == 408 || status == 429) {
            return new TransientException("QuestDB unavailable (HTTP " + status + "): " + message, e);
        }
        if (status == 401 || status == 403) {
            return new ConfigurationException(credentialKey, "QuestDB refused the credentials (HTTP " + status
                    + "): " + message, e);
        }
        if (status == 404 || status == 405 || status == 421) {
            return new ConfigurationException("address", "not a QuestDB ILP/HTTP endpoint (HTTP " + status
                    + "): " + message, e);
        }
        Matcher line = LINE.matcher(message);
        if (line.find()) {
            int index = Integer.parseInt(line.group(1)) - 1;
            if (index >= 0 && index < batchSize) {
                return new PermanentException("QuestDB rejected row " + index + " (HTTP " + status + "): " + message,
                        List.of(new PermanentException.RejectedItem(index, message)), e);
            }
        }
        return new PermanentException("QuestDB rejected the batch (HTTP " + status + "): " + message, e);
    }
}
