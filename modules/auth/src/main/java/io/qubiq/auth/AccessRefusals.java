package io.qubiq.auth;

import io.qubiq.core.event.AuditAction;

/**
 * Journals the refusals of signed-in callers that lack the permission a request needs (the console's
 * 403), so a refusal is on record while a signed-in caller still cannot flood the journal: they go
 * through their own {@link RefusalDigest} ({@code access_denied}), grouped by (user, address) per minute.
 * The first refusal of a group is journaled at once with the request and the missing permission (up to
 * {@link Auth#REFUSALS_JOURNALED_AT_ONCE} a minute); the others are counted into one summary per group,
 * "5,000 refused requests for victor from 10.0.0.9 between … and …", whose {@code reasons} say which
 * requests. These refusals raise no refusal-spike alarm: that alarm is about callers without credentials.
 *
 * <p>Thread-safe (the digest is).
 */
public final class AccessRefusals {

    private final RefusalDigest digest;

    AccessRefusals(RefusalDigest digest) {
        this.digest = digest;
    }

    /**
     * {@code who} was refused {@code request} (method and route, such as {@code GET /api/v1/users}) for
     * lacking {@code missing}; {@code from} is the remote address.
     */
    public void refused(Principal who, Permission missing, String request, String from) {
        digest.refused(who.user(), AuditAction.ACCESS_DENIED, request, "refused: lacks the permission \""
                + missing.label() + "\" for " + request, from, "permission", missing.label(), "via",
                who.via().name().toLowerCase(java.util.Locale.ROOT));
    }

    /** Journals the summaries of a window that has passed (the flusher calls it every few seconds). */
    public void flushDue() {
        digest.flushDue();
    }
}
