package io.qubiq.sink.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.mqtt.MqttProtocol;
import io.qubiq.testkit.mqtt.Mosquitto;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the sink can and cannot detect against Debian's mosquitto (skipped when it is not installed),
 * for both protocol versions: the broker's own refusals (ACL, maximum packet size, anonymous
 * access) as a real second broker answers them. Each test starts the mosquitto it needs (a few ms).
 */
class MosquittoSinkTest {

    private static final String TOPIC = "plant/line1/temperature";

    private static MqttSinkConfig config(Mosquitto mosquitto, MqttProtocol protocol) {
        return MqttSinkConfig.of(mosquitto.host(), mosquitto.port()).withProtocol(protocol);
    }

    private static List<String> payloads(List<TopicSubscriber.Received> received) {
        return received.stream().map(TopicSubscriber.Received::payload).toList();
    }

    @Test
    void mqtt5PublishToADeniedTopicIsPermanentWithMosquittosReasonCode() throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip(Mosquitto.Options.defaults().withDeniedTopic("secret/#"));
             TopicSubscriber subscriber = TopicSubscriber.on(mosquitto.host(), mosquitto.port(), TOPIC);
             MqttSink sink = new MqttSink("acl", config(mosquitto, MqttProtocol.MQTT_5))) {
            Throwable thrown = catchThrowable(() -> sink.write(List.of(
                    MqttMessage.of(TOPIC, "1", 1, false),
                    MqttMessage.of("secret/recipe", "denied", 1, false),
                    MqttMessage.of("secret/recipe", "denied too", 2, false),
                    MqttMessage.of(TOPIC, "2", 2, false))));

            assertThat(thrown).isInstanceOf(PermanentException.class);
            PermanentException permanent = (PermanentException) thrown;
            assertThat(permanent.othersWritten()).isTrue();
            assertThat(permanent.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(1, 2);
            assertThat(permanent.rejected().get(0).reason()).contains("PUBACK reason code 0x87 NOT_AUTHORIZED");
            assertThat(permanent.rejected().get(1).reason()).contains("PUBREC reason code 0x87 NOT_AUTHORIZED");
            assertThat(payloads(subscriber.receivedOn(TOPIC))).containsExactly("1", "2");
        }
    }

    @Test
    void mqtt311CannotSeeAnAclRefusalTheWriteOfADeniedMessageSucceeds() throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip(Mosquitto.Options.defaults().withDeniedTopic("secret/#"));
             TopicSubscriber subscriber = TopicSubscriber.on(mosquitto.host(), mosquitto.port(), "#");
             MqttSink sink = new MqttSink("acl311", config(mosquitto, MqttProtocol.MQTT_3_1_1))) {
            sink.write(List.of(MqttMessage.of(TOPIC, "1", 1, false), MqttMessage.of("secret/recipe", "denied", 1, false),
                    MqttMessage.of(TOPIC, "2", 1, false)));

            // mosquitto answered every PUBLISH with a plain PUBACK: to the sink the denied message is flushed, and
            // MQTT 3.1.1 offers no way to learn otherwise. The allowed ones arrived, in order.
            assertThat(payloads(subscriber.receivedOn(TOPIC))).containsExactly("1", "2");
        }
    }

    @Test
    void mqtt5TakesMosquittosMaximumPacketSizeFromConnackAndRefusesOnlyTheLargerMessage() throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip(Mosquitto.Options.defaults().withMaxPacketBytes(512));
             TopicSubscriber subscriber = TopicSubscriber.on(mosquitto.host(), mosquitto.port(), TOPIC);
             MqttSink sink = new MqttSink("size", config(mosquitto, MqttProtocol.MQTT_5))) {
            MqttMessage largest = HiveMqSinkTest.payloadOfPacketSize(TOPIC, 1, 512, true);
            Throwable thrown = catchThrowable(() -> sink.write(List.of(MqttMessage.of(TOPIC, "1", 1, false),
                    HiveMqSinkTest.payloadOfPacketSize(TOPIC, 1, 513, true), largest, MqttMessage.of(TOPIC, "2", 1, false))));

            assertThat(thrown).isInstanceOf(PermanentException.class);
            PermanentException permanent = (PermanentException) thrown;
            assertThat(permanent.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(1);
            assertThat(permanent.rejected().get(0).reason()).contains("513 bytes", "maximum packet size is 512",
                    "announced in CONNACK");
            assertThat(payloads(subscriber.receivedOn(TOPIC))).hasSize(3).startsWith("1").endsWith("2");
            assertThat(sink.connections()).isEqualTo(1);
        }
    }

    @Test
    void mqtt311OversizedMessageLooksLikeAnOutageUnlessMaxPacketBytesIsConfigured() throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip(Mosquitto.Options.defaults().withMaxPacketBytes(512));
             TopicSubscriber subscriber = TopicSubscriber.on(mosquitto.host(), mosquitto.port(), TOPIC);
             MqttSink unaware = new MqttSink("size311", config(mosquitto, MqttProtocol.MQTT_3_1_1));
             MqttSink told = new MqttSink("size311-told", config(mosquitto, MqttProtocol.MQTT_3_1_1).withMaxPacketBytes(512))) {
            MqttMessage tooLarge = HiveMqSinkTest.payloadOfPacketSize(TOPIC, 1, 600, false);

            // mosquitto drops the connection over the large packet: to the sink that is a lost connection
            assertThatThrownBy(() -> unaware.write(List.of(tooLarge))).isInstanceOf(TransientException.class);

            Throwable thrown = catchThrowable(() -> told.write(List.of(MqttMessage.of(TOPIC, "1", 1, false), tooLarge,
                    HiveMqSinkTest.payloadOfPacketSize(TOPIC, 1, 512, false))));
            assertThat(thrown).isInstanceOf(PermanentException.class);
            PermanentException permanent = (PermanentException) thrown;
            assertThat(permanent.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(1);
            assertThat(permanent.rejected().get(0).reason()).contains("configured max_packet_bytes");
            assertThat(payloads(subscriber.receivedOn(TOPIC))).hasSize(2).startsWith("1");
        }
    }

    @ParameterizedTest
    @EnumSource(MqttProtocol.class)
    void refusedCredentialsAreAConfigurationErrorAndProbeDown(MqttProtocol protocol) throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip(Mosquitto.Options.defaults().withAllowAnonymous(false));
             MqttSink sink = new MqttSink("closed", config(mosquitto, protocol).withCredentials("gateway", "wrong"))) {
            assertThatThrownBy(() -> sink.write(List.of(MqttMessage.of(TOPIC, "1", 1, false))))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("refused the connection")
                    .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("username"));
            ConnectionStatus probe = sink.probe();
            assertThat(probe.state()).isEqualTo(ConnectionState.DOWN);
            assertThat(probe.lastError()).hasValueSatisfying(error -> assertThat(error).contains("CONNACK"));
        }
    }
}
