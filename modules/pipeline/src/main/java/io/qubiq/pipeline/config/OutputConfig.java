package io.qubiq.pipeline.config;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Doc;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One output of a pipeline: an outbound connection and exactly one mapping for its kind. */
@Doc("One output: an outbound connection and the mapping for its kind (exactly one of questdb, sql, mongodb,"
        + " mqtt, matching the connection).")
public record OutputConfig(
        @Doc("The id of a connection under outbound.")
        String connection,

        @Doc("Row mapping for a QuestDB connection.")
        Optional<QuestDbOutputMapping> questdb,

        @Doc("Statement mapping for a SQL connection.")
        Optional<SqlOutputMapping> sql,

        @Doc("Document mapping for a MongoDB connection.")
        Optional<MongoOutputMapping> mongodb,

        @Doc("Message mapping for an MQTT connection.")
        Optional<MqttOutputMapping> mqtt) implements ConfigChecked {

    /** The kind of mapping that is set: questdb, sql, mongodb or mqtt. */
    public String kind() {
        return questdb.isPresent() ? "questdb" : sql.isPresent() ? "sql" : mongodb.isPresent() ? "mongodb" : "mqtt";
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        int set = (questdb.isPresent() ? 1 : 0) + (sql.isPresent() ? 1 : 0) + (mongodb.isPresent() ? 1 : 0)
                + (mqtt.isPresent() ? 1 : 0);
        if (set != 1) {
            violations.add(new Violation("connection", "an output needs exactly one mapping (questdb, sql, mongodb"
                    + " or mqtt), found " + set));
        }
        mongodb.ifPresent(mapping -> {
            if (mapping.mode() == MongoOutputMode.UPSERT && mapping.keyFields().isEmpty()) {
                violations.add(new Violation("mongodb.key_fields", "mode upsert needs at least one key field"));
            }
            for (String key : mapping.keyFields()) {
                if (!mapping.document().containsKey(key)) {
                    violations.add(new Violation("mongodb.key_fields", "key field " + key
                            + " is not a field of the document"));
                }
            }
        });
        return violations;
    }
}
