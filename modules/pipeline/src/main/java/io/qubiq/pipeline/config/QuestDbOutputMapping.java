package io.qubiq.pipeline.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import java.util.Map;

/** A row in a QuestDB table per event. Values are expressions. */
@Doc("Write one row per event to a QuestDB table.")
public record QuestDbOutputMapping(
        @Doc("The table; QuestDB creates it, and new columns, on first write.")
        String table,

        @Doc("Expression for the row's designated timestamp (an instant), such as source_time.")
        @Default("now")
        String timestamp,

        @Doc("Symbol (indexed text) columns: column name -> expression.")
        @Default("{}")
        Map<String, String> symbols,

        @Doc("Other columns: column name -> expression (number, boolean, text or instant).")
        @Default("{}")
        Map<String, String> columns) {
}
