package io.qubiq.auth;

import io.qubiq.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Console sessions: opaque ids handed out at sign-in, each with a CSRF token, ended by sign-out, by
 * timeouts, or for all of a user's sessions at once (password change, disable, delete).
 *
 * <p><b>Secrets.</b> A session id is 256 random bits (URL-safe base64). Its CSRF token is the
 * HMAC-SHA256 of the id under a key drawn at random when this manager is created, so the console can
 * hand the token to a page again ({@link #csrfToken}) to whoever presents the session cookie, without
 * memory ever holding a usable id or token: the table is keyed by the SHA-256 of the id and keeps only
 * the SHA-256 of the token, and a lookup's timing says nothing about valid ids; the token is compared
 * with {@link Secrets#constantTimeEquals}. A restart draws a new key, and ends every session anyway.
 *
 * <p><b>Expiry.</b> A session ends after {@code idle} without use or {@code absolute} after sign-in,
 * whichever comes first. Use is {@link #resolve} (a request); {@link #peek} (the live event stream's
 * check each second) is not use, so an open console tab alone does not keep a session alive. Both
 * timeouts are measured on the injected monotonic {@link Ticker}: a wall clock stepped back
 * does not keep a session alive longer by the size of the step, nor does one stepped forward end it
 * early. The wall clock only stamps {@link Session#created} and {@link Session#lastUsed}, for display.
 * Expired sessions are removed when next looked up and by a sweep every 64 sign-ins, so memory stays
 * proportional to live sessions.
 *
 * <p><b>Crash.</b> Sessions live in memory only: a restart signs everybody out. Nothing is written.
 *
 * <p><b>Threading.</b> Safe for concurrent use (a {@link ConcurrentHashMap}); every call is O(1) apart
 * from {@link #endAllOf} and the sweep, which scan the table.
 */
public final class SessionManager {

    /** A new session: {@code id} goes into the cookie, {@code csrfToken} into the page. Shown once. */
    public record NewSession(String id, String csrfToken, Session session) {
        @Override
        public String toString() {
            return "NewSession[user=" + session.user() + "]";
        }
    }

    /**
     * A live session, without its id.
     *
     * @param key the SHA-256 of the id: names the session in logs and audit without revealing it
     */
    public record Session(String key, String user, Instant created, Instant lastUsed, String csrfTokenHash) {
        Session touched(Instant now) {
            return new Session(key, user, created, now, csrfTokenHash);
        }
    }

    /** A session with the ticker's readings its timeouts are measured from. */
    private record Entry(Session session, long createdNanos, long lastUsedNanos) {
        Entry touched(Instant now, long nowNanos) {
            return new Entry(session.touched(now), createdNanos, nowNanos);
        }
    }

    private final Clock clock;
    private final Ticker ticker;
    private final Duration idle;
    private final Duration absolute;
    private final Map<String, Entry> byKey = new ConcurrentHashMap<>();
    private final AtomicInteger createdSinceSweep = new AtomicInteger();
    private final SecretKeySpec csrfKey = new SecretKeySpec(Secrets.randomBytes(32), "HmacSHA256");

    /**
     * @param clock  the wall clock: stamps sign-in and last use, for display
     * @param ticker the monotonic clock the idle and absolute timeouts are measured on
     */
    public SessionManager(Clock clock, Ticker ticker, Duration idle, Duration absolute) {
        if (idle.isNegative() || idle.isZero() || absolute.compareTo(idle) < 0) {
            throw new IllegalArgumentException("need 0 < idle <= absolute, got idle " + idle + ", absolute " + absolute);
        }
        this.clock = clock;
        this.ticker = ticker;
        this.idle = idle;
        this.absolute = absolute;
    }

    /** Starts a session for {@code user} (already authenticated by the caller). */
    public NewSession create(String user) {
        if (createdSinceSweep.incrementAndGet() >= 64) {
            createdSinceSweep.set(0);
            sweep();
        }
        String id = Secrets.random(32);
        String csrf = csrfOf(id);
        Instant now = clock.instant();
        long nowNanos = ticker.nanos();
        Session session = new Session(Secrets.sha256(id), user, now, now, Secrets.sha256(csrf));
        byKey.put(session.key(), new Entry(session, nowNanos, nowNanos));
        return new NewSession(id, csrf, session);
    }

    /** The live session with this id, marked as used now; empty when unknown, ended or expired. */
    public Optional<Session> resolve(String id) {
        String key = Secrets.sha256(id);
        Instant now = clock.instant();
        long nowNanos = ticker.nanos();
        Entry updated = byKey.computeIfPresent(key, (k, e) -> expired(e, nowNanos) ? null : e.touched(now, nowNanos));
        return Optional.ofNullable(updated).map(Entry::session);
    }

    /**
     * The live session with this id, <em>not</em> marked as used: for a watcher that must not keep an idle
     * session alive (the console's live event stream checks each second that its session still stands).
     * Empty when unknown, ended or expired; an expired entry is removed.
     */
    public Optional<Session> peek(String id) {
        String key = Secrets.sha256(id);
        long nowNanos = ticker.nanos();
        Entry entry = byKey.computeIfPresent(key, (k, e) -> expired(e, nowNanos) ? null : e);
        return Optional.ofNullable(entry).map(Entry::session);
    }

    /**
     * Whether {@code presented} is the CSRF token of the live session {@code id}. Call it for every
     * state-changing request; a missing token is a mismatch. Does not count as use of the session.
     */
    public boolean csrfMatches(String id, String presented) {
        Entry entry = byKey.get(Secrets.sha256(id));
        if (entry == null || presented == null || expired(entry, ticker.nanos())) {
            return false;
        }
        return Secrets.constantTimeEquals(Secrets.sha256(presented), entry.session().csrfTokenHash());
    }

    /**
     * The CSRF token of the live session {@code id}, to hand to the page again (after a reload); empty
     * when the session is unknown, ended or expired. Does not count as use of the session.
     */
    public Optional<String> csrfToken(String id) {
        if (id == null) {
            return Optional.empty();
        }
        Entry entry = byKey.get(Secrets.sha256(id));
        if (entry == null || expired(entry, ticker.nanos())) {
            return Optional.empty();
        }
        return Optional.of(csrfOf(id));
    }

    private String csrfOf(String id) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(csrfKey);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(id.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    /** Ends the session with this id (sign-out); the ended session, if it was live. */
    public Optional<Session> end(String id) {
        return Optional.ofNullable(byKey.remove(Secrets.sha256(id))).map(Entry::session);
    }

    /** Ends every session of {@code user}; returns how many there were. */
    public int endAllOf(String user) {
        return endAllOfExcept(user, "");
    }

    /** Ends every session of {@code user} except the one with key {@code keepKey} (after a password change). */
    public int endAllOfExcept(String user, String keepKey) {
        int[] ended = {0};
        byKey.values().removeIf(e -> {
            boolean match = e.session().user().equals(user) && !e.session().key().equals(keepKey);
            ended[0] += match ? 1 : 0;
            return match;
        });
        return ended[0];
    }

    /** Live sessions (for status pages and tests); expired ones not yet swept are not counted. */
    public int count() {
        long now = ticker.nanos();
        return (int) byKey.values().stream().filter(e -> !expired(e, now)).count();
    }

    /** Entries in the table, expired ones not yet swept included (for tests of the sweep). */
    int held() {
        return byKey.size();
    }

    private void sweep() {
        long now = ticker.nanos();
        byKey.values().removeIf(e -> expired(e, now));
    }

    /** Whether {@code e} has been idle for {@code idle} or alive for {@code absolute}, on the ticker. */
    private boolean expired(Entry e, long nowNanos) {
        return nowNanos - e.lastUsedNanos() >= idle.toNanos() || nowNanos - e.createdNanos() >= absolute.toNanos();
    }
}
