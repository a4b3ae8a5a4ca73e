package io.qubiq.core.event;

/** What an operator (or automation acting for one) did. Every action here is journaled. */
public enum AuditAction {
    QUARANTINE_RETRY,
    QUARANTINE_DROP,
    TAG_WRITE,
    /** An operator trusted a device's server certificate (OPC UA), moving it out of the rejected folder. */
    CERTIFICATE_TRUST,
    /** An operator resumed a suspended QuestDB table past the transaction it could not apply. */
    WAL_RESUME_SKIP,
    /** A user signed in with a password; outcome {@code signed in}. */
    SIGN_IN,
    /** A sign-in was refused: wrong user or password, disabled user, or throttled (the outcome says which). */
    SIGN_IN_FAILED,
    /** A user signed out, or a session was ended for them. */
    SIGN_OUT,
    /** The one-time setup token was used (or tried) to create the first administrator. */
    SETUP_CLAIM,
    USER_CREATE,
    USER_PASSWORD_CHANGE,
    USER_ROLES_CHANGE,
    USER_DISABLE,
    USER_ENABLE,
    USER_DELETE,
    API_TOKEN_CREATE,
    API_TOKEN_REVOKE,
    /** An operator enabled a pipeline (an override kept across restarts). */
    PIPELINE_ENABLE,
    /** An operator disabled a pipeline (an override kept across restarts). */
    PIPELINE_DISABLE,
    /**
     * The configuration file was changed through the gateway (a key written or removed, a hand edit
     * reloaded, a rollback); the details name the revision and the masked diff.
     */
    CONFIG_CHANGE,
    /** An operator discarded an orphaned store-and-forward directory; its items are in the loss ledger. */
    ORPHAN_DISCARD,
    /** An operator attached an orphaned store-and-forward directory to an outbound connection. */
    ORPHAN_ATTACH,
    /**
     * A signed-in caller was refused (403) for lacking the permission a request needs; journaled through a
     * digest (the first per user, address and minute, the rest as one summary with a count).
     */
    ACCESS_DENIED;

    /** {@link AuditEvent#details()} key for the remote address (IP or host) the action came from. */
    public static final String DETAIL_FROM = "from";

    /**
     * {@link AuditEvent#details()} key marking an entry the journal must keep through retention, value
     * {@value #KEEP_ALWAYS}: the creation of the first administrator. Only code sets it, never a request.
     */
    public static final String DETAIL_KEEP = "keep";
    public static final String KEEP_ALWAYS = "always";
}
