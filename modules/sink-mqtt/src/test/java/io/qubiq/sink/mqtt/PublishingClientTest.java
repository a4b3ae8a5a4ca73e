package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.GatewayException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How a publish future's completion becomes an outcome, with the HiveMQ client replaced by futures
 * the test completes. The case it guards: the client completes a QoS 2 publish without error when
 * the connection closes after PUBREC and before PUBCOMP (it ends the session then), which a real
 * broker cannot be made to do on cue.
 */
class PublishingClientTest {

    /** A client whose publishes complete when the test says so. */
    private static final class ScriptedClient extends PublishingClient {
        final List<CompletableFuture<Object>> sent = new ArrayList<>();

        ScriptedClient() {
            super("mqtt://test:1883", new AtomicInteger());
        }

        @Override
        CompletableFuture<Connected> sendConnect() {
            return CompletableFuture.completedFuture(new Connected(PacketSize.PROTOCOL_MAXIMUM, "test"));
        }

        @Override
        GatewayException connectFailure(Throwable error) {
            return FailureClassifier.connectFailed(error, broker);
        }

        @Override
        CompletableFuture<?> send(MqttMessage message) {
            CompletableFuture<Object> future = new CompletableFuture<>();
            sent.add(future);
            return future;
        }

        @Override
        boolean connected() {
            return true;
        }

        @Override
        CompletableFuture<Void> sendDisconnect() {
            return CompletableFuture.completedFuture(null);
        }
    }

    @Test
    void aQos2PublishCompletedAfterTheConnectionClosedIsNotFlushed() throws Exception {
        ScriptedClient client = new ScriptedClient();
        BatchAcknowledgements outcomes = new BatchAcknowledgements(3);
        client.publish(MqttMessage.of("t", "completed by PUBCOMP", 2, false), 0, outcomes);
        client.publish(MqttMessage.of("t", "completed after the close", 2, false), 1, outcomes);
        client.publish(MqttMessage.of("t", "QoS 1 completes only by PUBACK", 1, false), 2, outcomes);

        client.sent.get(0).complete("PUBCOMP");
        client.sent.get(2).complete("PUBACK");
        client.disconnects.incrementAndGet(); // the disconnected listener runs before the session ends
        client.sent.get(1).complete("session ended after PUBREC");

        List<PublishOutcome> result = outcomes.await(1000);
        assertThat(result.get(0)).isEqualTo(PublishOutcome.ACKNOWLEDGED);
        assertThat(result.get(1)).isInstanceOf(PublishOutcome.ConnectionLost.class);
        assertThat(((PublishOutcome.ConnectionLost) result.get(1)).reason()).contains("before its PUBCOMP");
        assertThat(result.get(2)).isEqualTo(PublishOutcome.ACKNOWLEDGED);
    }

    @Test
    void aPublishWithoutAnyCompletionIsUnansweredAtTheDeadline() throws Exception {
        ScriptedClient client = new ScriptedClient();
        BatchAcknowledgements outcomes = new BatchAcknowledgements(2);
        client.publish(MqttMessage.of("t", "1", 1, false), 0, outcomes);
        client.publish(MqttMessage.of("t", "2", 1, false), 1, outcomes);
        client.sent.get(0).complete("PUBACK");

        List<PublishOutcome> result = outcomes.await(50);
        assertThat(result.get(0)).isEqualTo(PublishOutcome.ACKNOWLEDGED);
        assertThat(result.get(1)).isInstanceOf(PublishOutcome.Unanswered.class);

        client.sent.get(1).completeExceptionally(new IllegalStateException("late"));
        assertThat(result.get(1)).as("what the writer saw does not change").isInstanceOf(PublishOutcome.Unanswered.class);
    }
}
