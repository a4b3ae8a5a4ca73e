package io.qubiq.core.connector;

import java.util.Objects;
import java.util.Optional;

/**
 * What one "Test connection" found out about a device connection's settings, probed right now and
 * apart from any running connector: whether the server answered, whether the session was accepted
 * with the configured identity, what became of the server's certificate, and how long the answer took.
 * The first step that failed is named in {@code message}, with what to do about it. Immutable.
 *
 * @param reachable     the server answered on the network (OPC UA discovery, MQTT CONNACK or a refusal)
 * @param authenticated the session was accepted with the configured identity; empty when the probe did
 *                      not get that far
 * @param certificate   what the probe found about the server's certificate
 * @param latencyMs     milliseconds of the server's answer (see each kind's probe); empty when unreachable
 * @param failure       empty when every step succeeded, else the failed step's sentence
 * @param message       one sentence for people: what succeeded, or what failed and what to do
 */
public record ProbeResult(boolean reachable, Optional<Boolean> authenticated, CertificateTrust certificate,
                          Optional<Long> latencyMs, Optional<String> failure, String message) {

    /** The server certificate's state as the probe saw it. */
    public enum CertificateTrust {
        /** The connection uses no server certificate (OPC UA SecurityPolicy None, MQTT without TLS). */
        NOT_USED,
        /** The certificate is in the connection's trust list (OPC UA) or passed the trust store (MQTT TLS). */
        TRUSTED,
        /** The certificate is not trusted: the connection would be refused until an operator trusts it. */
        UNTRUSTED,
        /** TLS without verification ({@code tls_verify: false}): any certificate is accepted. */
        NOT_VERIFIED,
        /** The probe did not get far enough to see a certificate. */
        UNKNOWN
    }

    public ProbeResult {
        Objects.requireNonNull(authenticated, "authenticated");
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(latencyMs, "latencyMs");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(message, "message");
    }

    /** Every step succeeded. */
    public static ProbeResult ok(CertificateTrust certificate, long latencyMs, String message) {
        return new ProbeResult(true, Optional.of(true), certificate, Optional.of(latencyMs), Optional.empty(), message);
    }

    /** The server did not answer: {@code why} says what was tried and what happened. */
    public static ProbeResult unreachable(String why) {
        return new ProbeResult(false, Optional.empty(), CertificateTrust.UNKNOWN, Optional.empty(), Optional.of(why), why);
    }

    /** The server answered but a later step failed. */
    public static ProbeResult failed(Optional<Boolean> authenticated, CertificateTrust certificate,
                                     Optional<Long> latencyMs, String why) {
        return new ProbeResult(true, authenticated, certificate, latencyMs, Optional.of(why), why);
    }

    /** Whether every step succeeded. */
    public boolean ok() {
        return failure.isEmpty();
    }
}
