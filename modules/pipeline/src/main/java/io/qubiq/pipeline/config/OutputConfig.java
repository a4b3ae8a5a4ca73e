package io.qubiq.pipeline.config;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.SelectedBySection;
import io.qubiq.core.config.Variant;
import java.util.ArrayList;
import java.util.List;

/**
 * One output of a pipeline: an outbound connection and the mapping for its kind, a section named
 * after the kind ({@code sql:} and so on), which must match the connection's kind. The section
 * selects the variant; the gateway's outbound kind of the same name turns it into a mapper.
 *
 * <pre>
 * outputs:
 *   - connection: plant-db
 *     sql:
 *       statement: INSERT INTO counts (ts, n) VALUES (:ts, :n)
 * </pre>
 */
@Doc("One output: an outbound connection and the mapping for its kind, one section (questdb, sql, mongodb or"
        + " mqtt) matching the connection.")
@SelectedBySection
public sealed interface OutputConfig {

    /** The id of a connection under {@code outbound}. */
    String connection();

    /** Compiles every expression of this output's mapping, reporting each at its key. */
    void checkExpressions(ExpressionCheck check);

    @Doc("An output to a QuestDB connection.")
    @Variant("questdb")
    record QuestDb(
            @Doc("The id of a connection under outbound.")
            String connection,

            @Doc("Row mapping for a QuestDB connection.")
            QuestDbOutputMapping questdb) implements OutputConfig {

        @Override
        public void checkExpressions(ExpressionCheck check) {
            check.expression("questdb.timestamp", questdb.timestamp());
            check.expressions("questdb.symbols", questdb.symbols());
            check.expressions("questdb.columns", questdb.columns());
        }
    }

    @Doc("An output to a SQL connection.")
    @Variant("sql")
    record Sql(
            @Doc("The id of a connection under outbound.")
            String connection,

            @Doc("Statement mapping for a SQL connection.")
            SqlOutputMapping sql) implements OutputConfig {

        @Override
        public void checkExpressions(ExpressionCheck check) {
            check.expressions("sql.parameters", sql.parameters());
        }
    }

    @Doc("An output to a MongoDB connection.")
    @Variant("mongodb")
    record MongoDb(
            @Doc("The id of a connection under outbound.")
            String connection,

            @Doc("Document mapping for a MongoDB connection.")
            MongoOutputMapping mongodb) implements OutputConfig, ConfigChecked {

        @Override
        public void checkExpressions(ExpressionCheck check) {
            check.expressions("mongodb.document", mongodb.document());
        }

        @Override
        public List<Violation> violations() {
            List<Violation> violations = new ArrayList<>();
            if (mongodb.mode() == MongoOutputMode.UPSERT && mongodb.keyFields().isEmpty()) {
                violations.add(new Violation("mongodb.key_fields", "mode upsert needs at least one key field"));
            }
            for (String key : mongodb.keyFields()) {
                if (!mongodb.document().containsKey(key)) {
                    violations.add(new Violation("mongodb.key_fields", "key field " + key
                            + " is not a field of the document"));
                }
            }
            return violations;
        }
    }

    @Doc("An output to an MQTT connection.")
    @Variant("mqtt")
    record Mqtt(
            @Doc("The id of a connection under outbound.")
            String connection,

            @Doc("Message mapping for an MQTT connection.")
            MqttOutputMapping mqtt) implements OutputConfig {

        @Override
        public void checkExpressions(ExpressionCheck check) {
            check.template("mqtt.topic", mqtt.topic());
            check.expression("mqtt.payload", mqtt.payload());
        }
    }
}
