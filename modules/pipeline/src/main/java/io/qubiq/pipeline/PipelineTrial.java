package io.qubiq.pipeline;

import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a pipeline configuration once over given events without writing anything: the filter and the
 * transforms as {@link Pipeline} runs them ({@link EventSteps}), then each output's {@link ItemMapper}, whose item is only
 * rendered for the operator, never submitted to a channel. What the console's "Try" answers.
 *
 * <p>Stateless; each call compiles the configuration again. Safe to call from any thread.
 */
public final class PipelineTrial {

    /** What an event came to. */
    public enum Outcome { EMITTED, FILTERED, FAILED }

    /** One output's item for one event, as the operator sees it. */
    public record Rendered(String connection, String kind, String item) {
    }

    /**
     * One event: its trigger variables, its outcome, the error that failed it, the value each transform computed
     * (in order; up to the one that failed), and the items per output.
     */
    public record Result(Map<String, Object> variables, Outcome outcome, Optional<String> error,
                         Map<String, Object> transforms, List<Rendered> outputs) {
        public Result {
            variables = java.util.Collections.unmodifiableMap(new HashMap<>(variables)); // json may be null
            transforms = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(transforms));
            outputs = List.copyOf(outputs);
        }
    }

    /**
     * One output, mapped but held by nobody: the mapper of the output's kind and how to show its item.
     *
     * @param <T> the item type of the output's connection
     */
    public record Preview<T>(String connection, String kind, ItemMapper<T> mapper,
                             java.util.function.Function<T, String> render) {

        Rendered map(Scope scope, String itemId) throws ExpressionException {
            return new Rendered(connection, kind, render.apply(mapper.map(scope, itemId)));
        }
    }

    private PipelineTrial() {
    }

    /**
     * @param events each event's trigger variables, as the pipeline's trigger would build them
     * @throws ExpressionException when the filter or a transform does not compile
     */
    public static List<Result> run(String id, PipelineConfig config, ExpressionEngine engine,
                                   List<Preview<?>> outputs, List<Map<String, Object>> events, Instant now)
            throws ExpressionException {
        EventSteps steps = EventSteps.of(config, engine);
        List<Result> results = new ArrayList<>();
        int sequence = 0;
        for (Map<String, Object> variables : events) {
            String itemId = id + ":try:" + (++sequence);
            Map<String, Object> all = new HashMap<>(variables);
            all.put("pipeline", id);
            all.put("now", now);
            all.put("item_id", itemId);
            Scope scope = new Scope(all);
            List<Rendered> rendered = new ArrayList<>();
            try {
                if (!steps.apply(scope)) {
                    results.add(new Result(variables, Outcome.FILTERED, Optional.empty(), Map.of(), List.of()));
                    continue;
                }
                for (Preview<?> output : outputs) {
                    rendered.add(output.map(scope, itemId));
                }
                results.add(new Result(variables, Outcome.EMITTED, Optional.empty(), computed(config, scope),
                        rendered));
            } catch (ExpressionException | RuntimeException e) {
                String error = e instanceof ExpressionException ? e.getMessage() : "event failed: " + e;
                results.add(new Result(variables, Outcome.FAILED, Optional.of(error), computed(config, scope),
                        rendered));
            }
        }
        return results;
    }

    /** The transforms' values in {@code scope}, in the configuration's order, as far as they were computed. */
    private static Map<String, Object> computed(PipelineConfig config, Scope scope) {
        Map<String, Object> values = new java.util.LinkedHashMap<>();
        for (var transform : config.transforms()) {
            if (!scope.has(transform.name())) {
                break;
            }
            values.put(transform.name(), scope.get(transform.name()));
        }
        return values;
    }
}
