package io.qubiq.core.event;

/** What an operator (or automation acting for one) did. Every action here is journaled. */
public enum AuditAction {
    QUARANTINE_RETRY,
    QUARANTINE_DROP,
    TAG_WRITE,
    /** An operator trusted a device's server certificate (OPC UA), moving it out of the rejected folder. */
    CERTIFICATE_TRUST,
    /** An operator resumed a suspended QuestDB table past the transaction it could not apply. */
    WAL_RESUME_SKIP
}
