package io.qubiq.pipeline.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import java.util.Map;

/** A parameterized SQL statement per event. */
@Doc("Run one parameterized statement per event (batched per delivery, one transaction per batch).")
public record SqlOutputMapping(
        @Doc("INSERT, UPSERT or UPDATE with named parameters (:name). :item_id is bound to the event's unique"
                + " item id, for ON CONFLICT (item_id) DO NOTHING.")
        String statement,

        @Doc("Parameter name -> expression, one for every :name in the statement except :item_id.")
        @Default("{}")
        Map<String, String> parameters) {
}
