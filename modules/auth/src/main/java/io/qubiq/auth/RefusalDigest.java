package io.qubiq.auth;

import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.RefusalSpikeAlarm;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Journals refusals of requests that bring no accepted credentials (failed and throttled sign-ins,
 * refused setup claims) so that nobody can fill the audit journal without signing in; a second instance
 * does the same for signed-in callers refused for lack of a permission ({@link AccessRefusals}).
 *
 * <p><b>The rule.</b> Time is cut into windows of {@code window} (aligned to the epoch, one minute in
 * production). In each window:
 * <ul>
 *   <li>refusals are grouped by (action, remote address, typed user name);</li>
 *   <li>the first refusal of a group is journaled at once, as it happened (its true reason), while the
 *       gateway-wide allowance of {@code immediatePerWindow} such entries lasts;</li>
 *   <li>every other refusal is only counted in its group; when the window has passed, each group that
 *       counted a refusal not journaled on its own gets one summary entry, such as
 *       {@code 1,234 refused sign-ins for admin from 10.0.0.5 between 08:00:00.120Z and 08:00:59.870Z},
 *       with the details {@code count}, {@code journaled_separately}, {@code users} (up to
 *       {@value #NAMES_SHOWN} names), {@code reasons} (count per reason), {@code first}
 *       and {@code last};</li>
 *   <li>at most {@code maxGroups} groups are open; a refusal that would open another joins its action's
 *       overflow group, whose address is {@value #MANY} (summary: "for admin, root, … and other names from
 *       many addresses").</li>
 * </ul>
 * So a window adds at most {@code immediatePerWindow + maxGroups + 2} entries (2 actions) to the journal,
 * however many requests arrive. More than {@code spikeLimit} refusals in one window raise the
 * {@link RefusalSpikeAlarm}; it clears at the end of the first later window that stays at or under it.
 *
 * <p><b>When summaries are written.</b> {@link #flushDue} writes the summaries of a window that has
 * passed; it runs on every refusal and every few seconds on the flusher {@link Auth#open} starts.
 * Counts of the open window live in memory only: a crash or stop loses them (never an entry journaled
 * at once).
 *
 * <p><b>Threading.</b> Safe for concurrent use: the state is under the instance lock; events are
 * published outside it, because publishing may fsync the journal.
 */
final class RefusalDigest {

    /** The address of an overflow group. */
    static final String MANY = "*";
    static final int NAMES_SHOWN = 5;
    private static final int REASONS_KEPT = 8;

    private record GroupKey(AuditAction action, String address, String user) {
    }

    private static final class Group {
        long count;
        long separately;
        Instant first;
        Instant last;
        final Map<String, Long> users = new LinkedHashMap<>();
        long otherUsers;
        final Map<String, Long> reasons = new LinkedHashMap<>();
    }

    private final AuditTrail audit;
    private final long windowMs;
    private final int immediatePerWindow;
    private final int maxGroups;
    private final long spikeLimit;
    private final Map<GroupKey, Group> groups = new LinkedHashMap<>();
    private long window = Long.MIN_VALUE;
    private int immediateUsed;
    private long windowTotal;
    private long spikeTotal;
    private boolean spiking;

    /** @param spikeLimit more refusals than this in one window raise the {@link RefusalSpikeAlarm} */
    RefusalDigest(AuditTrail audit, Duration window, int immediatePerWindow, int maxGroups, long spikeLimit) {
        if (window.toMillis() < 1 || immediatePerWindow < 0 || maxGroups < 1 || spikeLimit < 1) {
            throw new IllegalArgumentException("need window >= 1 ms, immediatePerWindow >= 0, maxGroups >= 1,"
                    + " spikeLimit >= 1");
        }
        this.audit = audit;
        this.windowMs = window.toMillis();
        this.immediatePerWindow = immediatePerWindow;
        this.maxGroups = maxGroups;
        this.spikeLimit = spikeLimit;
    }

    /**
     * A refused request: journaled at once or counted, by the rule above. The arguments are those of
     * {@link AuditTrail#record}; {@code user} is the name the request typed.
     */
    void refused(String user, AuditAction action, String target, String outcome, String from, String... details) {
        List<AuditEvent> out = new ArrayList<>();
        List<AlarmEvent> alarms = new ArrayList<>();
        synchronized (this) {
            Instant now = audit.clock().instant();
            collectDue(now, out, alarms);
            windowTotal++;
            if (windowTotal > spikeLimit && !spiking) {
                spiking = true;
                alarms.add(new RefusalSpikeAlarm(true, now, windowTotal, spikeLimit));
            }
            if (spiking) {
                spikeTotal = Math.max(spikeTotal, windowTotal);
            }
            String address = from == null ? "" : from.length() > 128 ? from.substring(0, 128) : from;
            String name = AuditTrail.printable(user);
            GroupKey key = new GroupKey(action, address, name);
            Group group = groups.get(key);
            if (group == null && groups.size() >= maxGroups) {
                key = new GroupKey(action, MANY, MANY);
                group = groups.get(key);
            }
            if (group == null) {
                group = new Group();
                group.first = now;
                groups.put(key, group);
            }
            group.count++;
            group.last = now;
            if (group.users.containsKey(name) || group.users.size() < NAMES_SHOWN) {
                group.users.merge(name, 1L, Long::sum);
            } else {
                group.otherUsers++;
            }
            String reason = group.reasons.containsKey(outcome) || group.reasons.size() < REASONS_KEPT ? outcome
                    : "other";
            group.reasons.merge(reason, 1L, Long::sum);
            if (group.count == 1 && immediateUsed < immediatePerWindow) {
                immediateUsed++;
                group.separately++;
                out.add(audit.event(user, action, target, outcome, from, details));
            }
        }
        out.forEach(audit::publish);
        alarms.forEach(audit::alarm);
    }

    /** Journals the summaries of a window that has passed; cheap when there is none. */
    void flushDue() {
        List<AuditEvent> out = new ArrayList<>();
        List<AlarmEvent> alarms = new ArrayList<>();
        synchronized (this) {
            collectDue(audit.clock().instant(), out, alarms);
        }
        out.forEach(audit::publish);
        alarms.forEach(audit::alarm);
    }

    /**
     * Under the lock: when {@code now} is in a later window, summarizes the old one and starts afresh;
     * clears the spike alarm once a whole window stayed under the limit.
     */
    private void collectDue(Instant now, List<AuditEvent> out, List<AlarmEvent> alarms) {
        long current = Math.floorDiv(now.toEpochMilli(), windowMs);
        if (current != window) {
            summarize(out);
            boolean quietWindowPassed = windowTotal <= spikeLimit || current - window > 1;
            if (spiking && quietWindowPassed) {
                spiking = false;
                alarms.add(new RefusalSpikeAlarm(false, now, spikeTotal, spikeLimit));
                spikeTotal = 0;
            }
            window = current;
            immediateUsed = 0;
            windowTotal = 0;
        }
    }

    private void summarize(List<AuditEvent> out) {
        groups.forEach((key, group) -> {
            if (group.count > group.separately) {
                out.add(summary(key, group));
            }
        });
        groups.clear();
    }

    private AuditEvent summary(GroupKey key, Group group) {
        boolean oneUser = group.users.size() == 1 && group.otherUsers == 0;
        String names = String.join(", ", group.users.keySet())
                + (group.otherUsers > 0 ? " and other names" : "");
        String noun = switch (key.action()) {
            case SETUP_CLAIM -> "setup claims";
            case SIGN_IN_FAILED -> "sign-ins";
            default -> "requests";
        };
        String from = key.address().equals(MANY) ? "many addresses" : key.address();
        String outcome = String.format(Locale.ROOT, "%,d refused %s for %s from %s between %s and %s", group.count,
                noun, names, from, group.first, group.last);
        StringBuilder reasons = new StringBuilder();
        group.reasons.forEach((reason, n) -> reasons.append(reasons.length() == 0 ? "" : "; ").append(reason)
                .append(": ").append(n));
        return audit.event(oneUser ? names : "anonymous", key.action(), oneUser ? "user/" + names : "users", outcome,
                key.address(), "count", Long.toString(group.count), "journaled_separately",
                Long.toString(group.separately), "users", names, "reasons", reasons.toString(), "first",
                group.first.toString(), "last", group.last.toString());
    }
}
