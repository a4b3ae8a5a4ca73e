package io.qubiq.app.config;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Doc;
import io.qubiq.sink.mongodb.MongoSinkConfig;
import io.qubiq.sink.mqtt.MqttSinkConfig;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.sink.sql.SqlSinkConfig;
import io.qubiq.storeforward.ChannelConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One outbound connection under {@code outbound.<id>}: exactly one destination section and the
 * store-and-forward channel in front of it. The channel's overflow policy follows the destination
 * (QuestDB and MQTT drop their oldest items at the limit; SQL and MongoDB refuse new ones) unless
 * {@code store_and_forward.overflow_policy} says otherwise.
 *
 * <pre>
 * outbound:
 *   plant-db:
 *     sql:
 *       jdbc_url: jdbc:postgresql://db.plant.local:5432/production
 *     store_and_forward:
 *       max_bytes: 2147483648
 * </pre>
 */
@Doc("One outbound connection: exactly one destination section, and its store-and-forward channel.")
public record OutboundConfig(
        @Doc("A QuestDB server, written over ILP/HTTP. See docs/sinks/questdb.md.")
        Optional<QuestDbSinkConfig> questdb,

        @Doc("A SQL database over JDBC (PostgreSQL driver included). See docs/sinks/sql.md.")
        Optional<SqlSinkConfig> sql,

        @Doc("A MongoDB database. See docs/sinks/mongodb.md.")
        Optional<MongoSinkConfig> mongodb,

        @Doc("An MQTT broker to publish to. See docs/sinks/mqtt.md.")
        Optional<MqttSinkConfig> mqtt,

        @Doc("The durable buffer, forwarder and quarantine of this connection. See docs/store-and-forward.md.")
        ChannelConfig storeAndForward) implements ConfigChecked {

    /** The destination kind that is set: questdb, sql, mongodb or mqtt. */
    public String kind() {
        return questdb.isPresent() ? "questdb" : sql.isPresent() ? "sql" : mongodb.isPresent() ? "mongodb" : "mqtt";
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        int set = (questdb.isPresent() ? 1 : 0) + (sql.isPresent() ? 1 : 0) + (mongodb.isPresent() ? 1 : 0)
                + (mqtt.isPresent() ? 1 : 0);
        if (set != 1) {
            violations.add(new Violation("questdb", "an outbound connection needs exactly one destination section"
                    + " (questdb, sql, mongodb or mqtt), found " + set));
        }
        return violations;
    }
}
