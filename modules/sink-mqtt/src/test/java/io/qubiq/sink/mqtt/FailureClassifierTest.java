package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.exceptions.ConnectionClosedException;
import com.hivemq.client.mqtt.exceptions.ConnectionFailedException;
import com.hivemq.client.mqtt.exceptions.MqttClientStateException;
import com.hivemq.client.mqtt.exceptions.MqttEncodeException;
import com.hivemq.client.mqtt.exceptions.MqttSessionExpiredException;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/**
 * The classification rules on their own. Reason codes in PUBACK and PUBREC, which only a broker can
 * produce, are proved against real brokers in {@link HiveMqSinkTest} and {@link MosquittoSinkTest}.
 */
class FailureClassifierTest {

    private static final String BROKER = "mqtt://broker:1883";
    private static final PublishOutcome ACK = PublishOutcome.ACKNOWLEDGED;

    private static GatewayException verdict(PublishOutcome... outcomes) {
        return FailureClassifier.verdict(List.of(outcomes), BROKER).orElseThrow();
    }

    @Test
    void everyMessageAcknowledgedIsNoFailure() {
        assertThat(FailureClassifier.verdict(List.of(ACK, ACK, ACK), BROKER)).isEmpty();
    }

    @Test
    void notConnectedClosedAndExpiredSessionsAreALostConnection() {
        for (Throwable error : List.of(new MqttClientStateException("MQTT client is not connected."),
                new ConnectionClosedException("Server closed connection without DISCONNECT."),
                new MqttSessionExpiredException("Session expired as connection was closed.",
                        new ConnectionClosedException("Server closed connection without DISCONNECT.")),
                new CompletionException(new ConnectionFailedException(new ConnectException("refused"))))) {
            assertThat(FailureClassifier.outcomeOf(error)).as(error.toString())
                    .isInstanceOf(PublishOutcome.ConnectionLost.class);
        }
    }

    @Test
    void aMessageTheClientCannotEncodeIsRejectedByTheClient() {
        assertThat(FailureClassifier.outcomeOf(new MqttEncodeException("PUBLISH exceeded maximum packet size")))
                .isInstanceOf(PublishOutcome.RejectedByClient.class);
    }

    @Test
    void anUnforeseenClientErrorIsAFailureWithoutVerdict() {
        assertThat(FailureClassifier.outcomeOf(new IllegalStateException("bug"))).isInstanceOf(PublishOutcome.Failed.class);
    }

    @Test
    void aLostConnectionMakesTheBatchTransientEvenWithRefusalsAndTimeouts() {
        GatewayException e = verdict(ACK, new PublishOutcome.ConnectionLost("closed"), new PublishOutcome.Unanswered(),
                new PublishOutcome.Refused(0x87, "PUBACK reason code 0x87 NOT_AUTHORIZED"));

        assertThat(e.failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(e).hasMessageContaining("1 of 4 messages were not acknowledged (closed); 1 were");
    }

    @Test
    void aMissingAcknowledgementMakesTheBatchAnUnknownOutcome() {
        assertThat(verdict(ACK, new PublishOutcome.Unanswered()).failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
        assertThat(verdict(new PublishOutcome.Failed("IllegalStateException: bug"),
                new PublishOutcome.Refused(0x80, "x")))
                .satisfies(e -> assertThat(e.failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME))
                .hasMessageContaining("IllegalStateException: bug");
    }

    @Test
    void refusedOversizedAndUnencodableMessagesArePermanentForExactlyThoseTheOthersWritten() {
        GatewayException e = verdict(ACK, new PublishOutcome.Refused(0x87, "PUBACK reason code 0x87 NOT_AUTHORIZED"), ACK,
                new PublishOutcome.TooLarge(2000, 1024, "announced in CONNACK"),
                new PublishOutcome.RejectedByClient("cannot encode"));

        assertThat(e).isInstanceOf(PermanentException.class);
        PermanentException permanent = (PermanentException) e;
        assertThat(permanent.othersWritten()).isTrue();
        assertThat(permanent.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(1, 3, 4);
        assertThat(permanent.rejected().get(0).reason()).contains("0x87 NOT_AUTHORIZED");
        assertThat(permanent.rejected().get(1).reason()).contains("2000 bytes", "maximum packet size is 1024");
        assertThat(permanent.rejected().get(2).reason()).isEqualTo("cannot encode");
        assertThat(permanent).hasMessageContaining("did not take 3 of 5 messages").hasMessageContaining("other 2 were");
    }

    @Test
    void aTlsHandshakeFailureIsAConfigurationErrorAndOtherConnectFailuresTransient() {
        GatewayException tls = FailureClassifier.connectFailed(new ConnectionFailedException(
                new IOException(new SSLHandshakeException("PKIX path building failed"))), BROKER);
        assertThat(tls).isInstanceOf(ConfigurationException.class);
        assertThat(((ConfigurationException) tls).key()).isEqualTo("tls");

        GatewayException refused = FailureClassifier.connectFailed(new ConnectionFailedException(
                new ConnectException("Connection refused")), BROKER);
        assertThat(refused.failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(refused).hasMessageContaining("cannot connect to MQTT broker " + BROKER);
    }

    @Test
    void connackRefusalsNameTheKeyToFixOrAreTransient() {
        assertThat(key(FailureClassifier.connectRefused(0x86, "BAD_USER_NAME_OR_PASSWORD", true, BROKER, null)))
                .isEqualTo("username");
        assertThat(key(FailureClassifier.connectRefused(0x87, "NOT_AUTHORIZED", true, BROKER, null))).isEqualTo("username");
        assertThat(key(FailureClassifier.connectRefused(0x85, "CLIENT_IDENTIFIER_NOT_VALID", true, BROKER, null)))
                .isEqualTo("client_id");
        assertThat(key(FailureClassifier.connectRefused(0x84, "UNSUPPORTED_PROTOCOL_VERSION", true, BROKER, null)))
                .isEqualTo("protocol");
        assertThat(key(FailureClassifier.connectRefused(4, "BAD_USER_NAME_OR_PASSWORD", false, BROKER, null)))
                .isEqualTo("username");
        assertThat(key(FailureClassifier.connectRefused(2, "IDENTIFIER_REJECTED", false, BROKER, null)))
                .isEqualTo("client_id");
        assertThat(FailureClassifier.connectRefused(0x88, "SERVER_UNAVAILABLE", true, BROKER, null).failureClass())
                .isEqualTo(FailureClass.TRANSIENT);
        assertThat(FailureClassifier.connectRefused(0x89, "SERVER_BUSY", true, BROKER, null).failureClass())
                .isEqualTo(FailureClass.TRANSIENT);
        assertThat(FailureClassifier.connectRefused(3, "SERVER_UNAVAILABLE", false, BROKER, null).failureClass())
                .isEqualTo(FailureClass.TRANSIENT);
    }

    private static String key(GatewayException e) {
        assertThat(e).isInstanceOf(ConfigurationException.class);
        return ((ConfigurationException) e).key();
    }
}
