package io.qubiq.app.config;

import io.qubiq.core.config.Doc;
import io.qubiq.core.config.SelectedBySection;
import io.qubiq.core.config.Variant;
import io.qubiq.sink.mongodb.MongoSinkConfig;
import io.qubiq.sink.mqtt.MqttSinkConfig;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.sink.sql.SqlSinkConfig;
import io.qubiq.storeforward.ChannelConfig;

/**
 * One outbound connection under {@code outbound.<id>}: exactly one destination section, whose key
 * selects the variant and so the connection's kind, and the store-and-forward channel in front of it.
 * The channel's overflow policy follows the kind ({@code OutboundKind.defaultOverflow}) unless
 * {@code store_and_forward.overflow_policy} says otherwise. Each variant has an {@code OutboundKind}
 * of the same name in {@code io.qubiq.app.outbound.OutboundKinds}.
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
@Doc("One outbound connection: exactly one destination section (questdb, sql, mongodb or mqtt), which selects its"
        + " kind, and its store-and-forward channel.")
@SelectedBySection
public sealed interface OutboundConfig {

    /** The durable buffer, forwarder and quarantine of this connection. */
    ChannelConfig storeAndForward();

    @Doc("A QuestDB connection.")
    @Variant("questdb")
    record QuestDb(
            @Doc("A QuestDB server, written over ILP/HTTP. See docs/sinks/questdb.md.")
            QuestDbSinkConfig questdb,

            @Doc("The durable buffer, forwarder and quarantine of this connection. See docs/store-and-forward.md.")
            ChannelConfig storeAndForward) implements OutboundConfig {
    }

    @Doc("A SQL connection.")
    @Variant("sql")
    record Sql(
            @Doc("A SQL database over JDBC (PostgreSQL driver included). See docs/sinks/sql.md.")
            SqlSinkConfig sql,

            @Doc("The durable buffer, forwarder and quarantine of this connection. See docs/store-and-forward.md.")
            ChannelConfig storeAndForward) implements OutboundConfig {
    }

    @Doc("A MongoDB connection.")
    @Variant("mongodb")
    record MongoDb(
            @Doc("A MongoDB database. See docs/sinks/mongodb.md.")
            MongoSinkConfig mongodb,

            @Doc("The durable buffer, forwarder and quarantine of this connection. See docs/store-and-forward.md.")
            ChannelConfig storeAndForward) implements OutboundConfig {
    }

    @Doc("An MQTT connection.")
    @Variant("mqtt")
    record Mqtt(
            @Doc("An MQTT broker to publish to. See docs/sinks/mqtt.md.")
            MqttSinkConfig mqtt,

            @Doc("The durable buffer, forwarder and quarantine of this connection. See docs/store-and-forward.md.")
            ChannelConfig storeAndForward) implements OutboundConfig {
    }
}
