package io.qubiq.console;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's checks of a pipeline before it is saved: one expression compiled as the pipeline would
 * compile it, and a whole pipeline run once over current values without writing anything ("Try").
 * The application implements it and answers with the records declared here, which are the API's JSON.
 */
public interface PipelineTrials {

    /**
     * An expression's check.
     *
     * @param error    why it cannot be used, as the configuration load would say it
     * @param position where in the expression the parser stopped ({@code 1:7}), when it says
     */
    record ExpressionCheck(boolean ok, Optional<String> error, Optional<String> position) {
    }

    /** What a try answered: each problem of the pipeline, or the events. */
    sealed interface Outcome permits Tried, Invalid {
    }

    /** The pipeline would not load; the same shape as a configuration change's 422. */
    record Invalid(String error, List<ConfigAccess.Problem> problems) implements Outcome {
        public Invalid {
            problems = List.copyOf(problems);
        }
    }

    /** The events a try ran, in order; at most {@code limit} from the current values. */
    record Tried(List<TriedEvent> events, int limit) implements Outcome {
        public Tried {
            events = List.copyOf(events);
        }
    }

    /**
     * One event.
     *
     * @param variables the trigger's variables (values as text where JSON has no type for them)
     * @param outcome    {@code emitted}, {@code filtered} or {@code failed}
     * @param transforms the value each transform computed, in order (as far as they ran), as the variables
     * @param outputs    what each output would have been given, nothing of it written
     */
    record TriedEvent(Map<String, Object> variables, String outcome, Optional<String> error,
                      Map<String, Object> transforms, List<TriedOutput> outputs) {
    }

    /** One output's item, as it would be written: the same rendering as in quarantine. */
    record TriedOutput(String connection, String kind, String item) {
    }

    /** A message for an MQTT trigger's try. */
    record Message(String topic, String payload) {
    }

    /**
     * @param trigger    the pipeline's trigger section ({@code {"tags": [...]}}, {@code {"interval_ms": 1000}} or
     *                   {@code {"mqtt": {...}}}): it decides the variables
     * @param transforms the names of the transforms computed before this expression
     * @param template   whether the expression is a text template with {@code {{ }}} (an MQTT output topic)
     * @throws RequestFailure.InvalidRequest when the trigger has none of its three keys
     */
    ExpressionCheck checkExpression(String expression, Map<String, Object> trigger, List<String> transforms,
                                    boolean template);

    /**
     * Runs pipeline {@code id}'s section {@code pipeline} (the shape of the value at {@code pipelines.<id>})
     * once over the current values, or over {@code message} for an MQTT trigger, submitting nothing.
     */
    Outcome tryPipeline(String id, Object pipeline, Optional<Message> message);
}
