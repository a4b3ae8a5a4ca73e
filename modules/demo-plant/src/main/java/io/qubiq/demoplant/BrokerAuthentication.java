package io.qubiq.demoplant;

import com.hivemq.embedded.EmbeddedExtension;
import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.auth.SimpleAuthenticator;
import com.hivemq.extension.sdk.api.packets.connect.ConnackReasonCode;
import com.hivemq.extension.sdk.api.packets.connect.ConnectPacket;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.services.Services;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plant broker's sign-in check: an embedded HiveMQ extension whose authenticator admits a CONNECT
 * only with the plant's {@link BrokerCredentials} and refuses every other one (anonymous, wrong user or
 * password) with {@code BAD_USER_NAME_OR_PASSWORD} (MQTT 3.1.1: return code 4), logging each refusal at
 * WARN with the client id. A client admitted may publish and subscribe to every topic. Stateless apart
 * from the credentials; the authenticator runs on HiveMQ's threads.
 */
final class BrokerAuthentication {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerAuthentication.class);

    private BrokerAuthentication() {
    }

    /** The extension to pass to {@code EmbeddedHiveMQ.builder().withEmbeddedExtension(...)}. */
    static EmbeddedExtension extension(BrokerCredentials credentials) {
        SimpleAuthenticator authenticator = (input, output) -> {
            ConnectPacket connect = input.getConnectPacket();
            if (credentials.admit(connect.getUserName(), connect.getPassword())) {
                output.authenticateSuccessfully();
                return;
            }
            LOG.warn("Demo plant: the MQTT broker refused client {}: {}", connect.getClientId(),
                    connect.getUserName().isEmpty() ? "no user name (the demo broker admits no anonymous clients)"
                            : "wrong user name or password");
            output.failAuthentication(ConnackReasonCode.BAD_USER_NAME_OR_PASSWORD,
                    "the demo plant's broker admits only the gateway's own credentials");
        };
        ExtensionMain main = new ExtensionMain() {
            @Override
            public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
                Services.securityRegistry().setAuthenticatorProvider(providerInput -> authenticator);
            }

            @Override
            public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
            }
        };
        return EmbeddedExtension.builder()
                .withId("qubiq-demo-authentication")
                .withName("Qubiq demo plant broker authentication")
                .withVersion("1")
                .withAuthor("qubiq")
                .withPriority(0)
                .withStartPriority(1000)
                .withExtensionMain(main)
                .build();
    }
}
