package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.storeforward.DeliveryPolicy.Kind;
import io.qubiq.storeforward.DeliveryPolicy.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one failure policy both write paths apply (DirectWrite and DeliveryAttempt): pins each class
 * to its verdict and the attempts it costs. Would catch the two paths drifting apart again (a
 * configuration error counted as an attempt, an Error or a sink bug treated as an outage).
 */
class DeliveryPolicyTest {

    @Test
    void anOutageAndAMisconfigurationNeverCostAnAttempt() {
        assertThat(DeliveryPolicy.judge(new TransientException("broker down")))
                .extracting(Verdict::kind).isEqualTo(Kind.OUTAGE);
        assertThat(DeliveryPolicy.judge(new ConfigurationException("outbound.db.sql.url", "bad key")))
                .extracting(Verdict::kind).isEqualTo(Kind.MISCONFIGURED);
        assertThat(Kind.OUTAGE.attempts()).isZero();
        assertThat(Kind.MISCONFIGURED.attempts()).isZero();
    }

    @Test
    void aRejectionCarriesTheSinksListOfRejectedItems() {
        PermanentException rejected = new PermanentException("constraint",
                List.of(new PermanentException.RejectedItem(2, "duplicate key")), null);
        Verdict verdict = DeliveryPolicy.judge(rejected);
        assertThat(verdict.kind()).isEqualTo(Kind.REJECTED);
        assertThat(verdict.rejection()).isSameAs(rejected);
        assertThat(verdict.reason()).isEqualTo("constraint");
        assertThat(Kind.REJECTED.attempts()).isOne();
    }

    @Test
    void anUnknownOutcomeCostsAnAttemptAndSaysWhetherItWasATimeout() {
        Verdict verdict = DeliveryPolicy.judge(UnknownOutcomeException.timedOut("no answer in 30 s", null));
        assertThat(verdict.kind()).isEqualTo(Kind.NO_VERDICT);
        assertThat(verdict.timedOut()).isTrue();
        assertThat(DeliveryPolicy.judge(new UnknownOutcomeException("connection reset after send", null)).timedOut())
                .isFalse();
        assertThat(Kind.NO_VERDICT.attempts()).isOne();
    }

    @Test
    void anyOtherExceptionIsASinkBugNamedByItsClassAndMessage() {
        Verdict verdict = DeliveryPolicy.judge(new IllegalStateException("index 3"));
        assertThat(verdict.kind()).isEqualTo(Kind.SINK_BUG);
        assertThat(verdict.reason()).isEqualTo("sink failure: java.lang.IllegalStateException: index 3");
        assertThat(Kind.SINK_BUG.attempts()).isOne();
    }

    @Test
    void anErrorIsFatalAndStillCostsItsItemsAnAttempt() {
        Verdict verdict = DeliveryPolicy.judge(new OutOfMemoryError("Java heap space"));
        assertThat(verdict.kind()).isEqualTo(Kind.FATAL);
        assertThat(verdict.reason()).isEqualTo("sink failure: java.lang.OutOfMemoryError: Java heap space");
        assertThat(Kind.FATAL.attempts()).isOne();
        assertThat(DeliveryPolicy.judge(new InternalError("broken")).kind()).isEqualTo(Kind.FATAL);
    }

    @Test
    void anErrorThatIsNotTheJvmsOwnIsASinkBugCappedLikeAnyOther() {
        for (Error error : List.of(new StackOverflowError("deep item"), new NoClassDefFoundError("com/example/Mapper"),
                new AssertionError("odd shape"), new ExceptionInInitializerError("static init"))) {
            Verdict verdict = DeliveryPolicy.judge(error);
            assertThat(verdict.kind()).as(error.toString()).isEqualTo(Kind.SINK_BUG);
            assertThat(verdict.reason()).isEqualTo("sink failure: " + error.getClass().getName() + ": "
                    + error.getMessage());
        }
    }
}
