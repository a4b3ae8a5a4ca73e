package io.qubiq.pipeline.trigger;

import io.qubiq.pipeline.Pipeline;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Each message on a topic filter of an MQTT device connection is one event. */
public final class MqttMessageTrigger implements Trigger {

    private static final Logger LOG = LoggerFactory.getLogger(MqttMessageTrigger.class);

    private final DeviceMessages messages;
    private final String connection;
    private final String topicFilter;
    private volatile AutoCloseable listening;

    public MqttMessageTrigger(DeviceMessages messages, String connection, String topicFilter) {
        this.messages = messages;
        this.connection = connection;
        this.topicFilter = topicFilter;
    }

    @Override
    public void start(Pipeline pipeline) {
        listening = messages.listen(connection, topicFilter, message -> {
            Map<String, Object> event = new HashMap<>();
            event.put("topic", message.topic());
            event.put("payload", message.payload());
            event.put("json", message.json().orElse(null));
            pipeline.handle(List.of(event));
        });
    }

    @Override
    public void close() {
        AutoCloseable current = listening;
        if (current != null) {
            try {
                current.close();
            } catch (Exception e) {
                LOG.debug("Closing the MQTT trigger on {} failed", connection, e);
            }
        }
    }
}
