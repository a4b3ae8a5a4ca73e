package io.qubiq.testkit.mqtt;

import com.hivemq.embedded.EmbeddedExtension;
import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.interceptor.publish.PublishInboundInterceptor;
import com.hivemq.extension.sdk.api.packets.publish.AckReasonCode;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.async.TimeoutFallback;
import com.hivemq.extension.sdk.api.services.Services;
import java.time.Duration;

/**
 * A broker-side rule set for tests that need a real broker to refuse or hold back a publish: an
 * embedded HiveMQ extension ({@link TestMqttBroker#withPublishPolicy(Duration)}) with a publish
 * inbound interceptor for every client.
 *
 * <ul>
 *   <li>Topics under {@value #FORBIDDEN} are not delivered: the broker answers a QoS 1 publish with a
 *       PUBACK (QoS 2: a PUBREC) carrying reason code {@code NOT_AUTHORIZED} (0x87) and reason
 *       string {@value #REASON} to an MQTT 5 client. (MQTT 3.1.1 has no reason codes; what HiveMQ does
 *       for such a client is the broker's choice, see the sink tests.)
 *   <li>Topics under {@value #DELAYED} are acknowledged and delivered only after the configured delay,
 *       as if the broker were slow: a way to make an acknowledgement late without stopping the broker.
 *   <li>Publishes to topics under {@value InboundLog#PREFIX} are recorded in the broker's {@link InboundLog}.
 *   <li>Everything else passes untouched.
 * </ul>
 *
 * <p>Stateless apart from the delay; the interceptor runs on HiveMQ's threads.
 */
public final class PublishPolicy {

    /** The topic prefix whose publishes are refused with NOT_AUTHORIZED. */
    public static final String FORBIDDEN = "forbidden/";
    /** The topic prefix whose publishes are held back for the configured delay, then delivered. */
    public static final String DELAYED = "delayed/";
    /** The reason string of a refused publish. */
    public static final String REASON = "qubiq test broker: publishing to forbidden/# is not allowed";

    private PublishPolicy() {
    }

    /** The extension to pass to {@code EmbeddedHiveMQ.builder().withEmbeddedExtension(...)}. */
    static EmbeddedExtension extension(Duration delay, InboundLog inbound) {
        PublishInboundInterceptor interceptor = (input, output) -> {
            String topic = input.getPublishPacket().getTopic();
            if (topic.startsWith(InboundLog.PREFIX)) {
                inbound.received(topic, payloadOf(input.getPublishPacket()));
            }
            if (topic.startsWith(FORBIDDEN)) {
                output.preventPublishDelivery(AckReasonCode.NOT_AUTHORIZED, REASON);
            } else if (topic.startsWith(DELAYED)) {
                // never resumed: the timeout lets the publish through, delay later than it arrived
                output.async(delay, TimeoutFallback.SUCCESS);
            }
        };
        ExtensionMain main = new ExtensionMain() {
            @Override
            public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
                Services.initializerRegistry().setClientInitializer((initializerInput, clientContext) ->
                        clientContext.addPublishInboundInterceptor(interceptor));
            }

            @Override
            public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
            }
        };
        return EmbeddedExtension.builder()
                .withId("qubiq-publish-policy")
                .withName("Qubiq test publish policy")
                .withVersion("1")
                .withAuthor("qubiq")
                .withPriority(0)
                .withStartPriority(1000)
                .withExtensionMain(main)
                .build();
    }

    private static byte[] payloadOf(com.hivemq.extension.sdk.api.packets.publish.PublishPacket packet) {
        return packet.getPayload().map(buffer -> {
            java.nio.ByteBuffer copy = buffer.asReadOnlyBuffer();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            return bytes;
        }).orElse(new byte[0]);
    }
}
