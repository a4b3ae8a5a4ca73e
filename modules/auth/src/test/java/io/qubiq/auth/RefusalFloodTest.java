package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.RefusalSpikeAlarm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Refused requests without credentials are journaled in bounded number, and every one is accounted for. */
class RefusalFloodTest {

    /** The most entries one window may add: the ones on their own, one summary per group, two overflow groups. */
    static final int PER_WINDOW = Auth.REFUSALS_JOURNALED_AT_ONCE + Auth.REFUSAL_GROUPS + 2;

    @TempDir
    Path dir;

    /** How many refusals the events account for: each summary's count, plus the entries no summary covers. */
    private static long refusalsAccountedFor(List<AuditEvent> refusals) {
        long total = 0;
        for (AuditEvent event : refusals) {
            if (event.details().containsKey("count")) {
                total += Long.parseLong(event.details().get("count"))
                        - Long.parseLong(event.details().get("journaled_separately"));
            } else {
                total++;
            }
        }
        return total;
    }

    private static boolean isRefusal(AuditEvent event) {
        return event.action() == AuditAction.SIGN_IN_FAILED
                || event.action() == AuditAction.SETUP_CLAIM && event.outcome().contains("refused");
    }

    /**
     * Catches the unauthenticated journal flood: every refused setup claim and throttled sign-in was one
     * fsynced entry (8,000 requests on a 1 MiB journal deleted "first administrator created"). Now
     * 8,000 refusals over ten minutes write at most {@link #PER_WINDOW} entries a minute, and the counts
     * in them still add up to 8,000.
     */
    @Test
    void aFloodOf8000RefusalsWritesABoundedNumberOfEntriesThatAccountForEveryOne() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.auth.bootstrap().start(Optional.empty());
        String announcement = f.announcements.get(0);
        f.auth.bootstrap().claimSetup(announcement.substring(announcement.lastIndexOf(' ') + 1), "admin",
                AuthFixture.password("admin"), "10.0.0.1");

        for (int i = 0; i < 8000; i++) {
            f.clock.advance(Duration.ofMillis(75));
            String from = "10.0." + (i / 250 % 250) + "." + (i % 250);
            switch (i % 4) {
                case 0 -> assertThatThrownBy(() -> f.auth.bootstrap().claimSetup("setup_guess", "eve",
                        "eve-password-long", from)).isInstanceOf(SetupRefusedException.class);
                case 1 -> f.auth.signIn().signIn("admin", "guess", "10.66.0.1");
                case 2 -> f.auth.signIn().signIn("nobody", "guess", from);
                default -> f.auth.signIn().signIn("user" + i, "guess", "10.66.0.2");
            }
        }
        f.auth.signIn().flushRefusals();
        f.clock.advance(Duration.ofMinutes(1));
        f.auth.signIn().flushRefusals();

        assertThat(f.events.audits.get(0).outcome()).isEqualTo("first administrator created");
        List<AuditEvent> refusals = f.events.audits.stream().filter(RefusalFloodTest::isRefusal).toList();
        assertThat(refusals.size()).as("entries for 8,000 refusals in 10 minutes").isLessThanOrEqualTo(10 * PER_WINDOW);
        assertThat(refusalsAccountedFor(refusals)).isEqualTo(8000);
        assertThat(refusals).anySatisfy(e -> assertThat(e.outcome())
                .matches("[0-9,]+ refused sign-ins for admin from 10\\.66\\.0\\.1 between .* and .*"));
        assertThat(refusals).anySatisfy(e -> assertThat(e.outcome())
                .matches("[0-9,]+ refused setup claims for eve from many addresses between .* and .*"));
    }

    /**
     * Catches a flood nobody is told of: more than {@link Auth#REFUSAL_SPIKE_PER_WINDOW} refusals in a
     * minute raise the refusal-spike alarm once; it clears after the first minute that stays under it.
     */
    @Test
    void aSpikeOfRefusalsRaisesAnAlarmThatAQuietMinuteClears() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        for (int i = 0; i < Auth.REFUSAL_SPIKE_PER_WINDOW; i++) {
            f.auth.signIn().signIn("admin", "guess", "10.0.0.5");
        }
        assertThat(f.events.alarms).as("at the limit").isEmpty();

        for (int i = 0; i < 150; i++) {
            f.auth.signIn().signIn("admin", "guess", "10.0.0.5");
        }
        assertThat(f.events.alarms).singleElement().isInstanceOfSatisfying(RefusalSpikeAlarm.class,
                alarm -> assertThat(alarm.active()).isTrue());

        f.clock.advance(Duration.ofMinutes(1));
        f.auth.signIn().signIn("admin", "guess", "10.0.0.5");
        f.auth.signIn().flushRefusals();
        assertThat(f.events.alarms).as("the quiet minute is not over yet").hasSize(1);

        f.clock.advance(Duration.ofMinutes(1));
        f.auth.signIn().flushRefusals();
        assertThat(f.events.alarms).hasSize(2).last().isInstanceOfSatisfying(RefusalSpikeAlarm.class, alarm -> {
            assertThat(alarm.active()).isFalse();
            assertThat(alarm.refusals()).isEqualTo(250);
        });
    }

    /** Catches a digest that hides the first refusal: a single mistyped password is journaled at once, as it was. */
    @Test
    void aSingleRefusalIsJournaledAtOnceWithItsTrueReason() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.user("alice", "viewer");

        f.auth.signIn().signIn("alice", "mistyped", "10.0.0.5");

        assertThat(f.events.last().outcome()).isEqualTo("wrong password");
        f.clock.advance(Duration.ofMinutes(2));
        f.auth.signIn().flushRefusals();
        assertThat(f.events.of(AuditAction.SIGN_IN_FAILED)).as("no summary for a refusal journaled on its own")
                .hasSize(1);
    }

    /** Catches a summary that is never written when the flood stops: the flusher writes it after its window. */
    @Test
    void theSummaryOfAWindowIsWrittenOnceTheWindowHasPassed() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        for (int i = 0; i < 1234; i++) {
            f.auth.signIn().signIn("admin", "guess", "10.0.0.5");
        }
        f.auth.signIn().flushRefusals();
        assertThat(f.events.of(AuditAction.SIGN_IN_FAILED)).as("within the window").hasSize(1);

        f.clock.advance(Duration.ofMinutes(1));
        f.auth.signIn().flushRefusals();

        AuditEvent summary = f.events.last();
        assertThat(summary.user()).isEqualTo("admin");
        assertThat(summary.outcome()).startsWith("1,234 refused sign-ins for admin from 10.0.0.5 between ");
        assertThat(summary.details()).containsEntry("reasons", "unknown user: 5; throttled: 1229")
                .containsEntry(AuditAction.DETAIL_FROM, "10.0.0.5");
    }

    /**
     * Catches 403s that are not journaled, and a signed-in caller flooding the journal with them: the first
     * refusal per (user, address) and minute is journaled at once, the rest become one summary with the count.
     */
    @Test
    void permissionRefusalsOfASignedInCallerAreJournaledOncePerMinuteWithACount() throws Exception {
        AuthFixture f = new AuthFixture(dir);
        f.user("victor", "viewer");
        Principal victor = f.signIn("victor");

        for (int i = 0; i < 5000; i++) {
            f.auth.accessRefusals().refused(victor, Permission.MANAGE_USERS, "GET /api/v1/users", "10.0.0.9");
        }

        assertThat(f.events.of(AuditAction.ACCESS_DENIED)).singleElement().satisfies(first -> {
            assertThat(first.user()).isEqualTo("victor");
            assertThat(first.outcome()).contains("Manage users", "GET /api/v1/users");
            assertThat(first.details()).containsEntry(AuditAction.DETAIL_FROM, "10.0.0.9");
        });
        f.clock.advance(Duration.ofMinutes(1));
        f.auth.accessRefusals().flushDue();

        List<AuditEvent> entries = f.events.of(AuditAction.ACCESS_DENIED);
        assertThat(entries).hasSize(2);
        assertThat(entries.get(1).outcome()).startsWith("5,000 refused requests for victor from 10.0.0.9 between ");
        assertThat(entries.get(1).details()).containsEntry("count", "5000").containsEntry("journaled_separately", "1");
        assertThat(f.events.alarms).as("403s raise no sign-in spike alarm").isEmpty();
    }
}
