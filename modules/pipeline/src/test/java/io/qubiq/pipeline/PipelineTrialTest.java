package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.expr.Expression;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.TagLookup;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A try runs the filter, the transforms and each output's mapper as a pipeline does, per event, and only
 * renders the items: an event the filter turns away is "filtered", one whose expression fails "failed"
 * with the error, the others "emitted" with one rendered item per output.
 */
class PipelineTrialTest {

    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    private final ExpressionEngine engine = new ExpressionEngine(TagLookup.none());

    private PipelineConfig config() throws Exception {
        return PipelineConfigs.parse("""
                pipelines:
                  p:
                    trigger: {tags: ["plant/**"]}
                    filter: "value != 0"
                    transforms:
                      - {name: inverse, expression: "1.0 / value"}
                      - {name: label, expression: "path + '=' + inverse"}
                    outputs:
                      - connection: db
                        sql: {statement: "INSERT INTO t (v) VALUES (:v)", parameters: {v: "label"}}
                """).get("p");
    }

    /** A mapper of the output's own expression, as a kind's would be: the label, or a failure on a null value. */
    private PipelineTrial.Preview<String> preview() throws ExpressionException {
        Expression label = engine.compile("label", java.util.Set.of("label"));
        return new PipelineTrial.Preview<>("db", "sql", (scope, itemId) -> itemId + " " + label.evaluate(scope),
                item -> "rendered " + item);
    }

    @Test
    void eachEventIsEmittedFilteredOrFailedAndItsItemsAreOnlyRendered() throws Exception {
        List<PipelineTrial.Result> results = PipelineTrial.run("p", config(), engine, List.of(preview()), List.of(
                Map.of("path", "plant/a", "value", 4.0),
                Map.of("path", "plant/b", "value", 0.0),
                Map.of("path", "plant/c", "value", "text")), NOW);

        assertThat(results).extracting(PipelineTrial.Result::outcome).containsExactly(
                PipelineTrial.Outcome.EMITTED, PipelineTrial.Outcome.FILTERED, PipelineTrial.Outcome.FAILED);
        assertThat(results.get(0).outputs()).containsExactly(
                new PipelineTrial.Rendered("db", "sql", "rendered p:try:1 plant/a=0.25"));
        assertThat(results.get(0).variables()).containsEntry("path", "plant/a").doesNotContainKey("inverse");
        assertThat(results.get(1).outputs()).isEmpty();
        assertThat(results.get(2).error()).hasValueSatisfying(error -> assertThat(error).isNotBlank());
    }

    @Test
    void eachEventShowsTheValueEveryTransformComputedInOrderAndNoneWhenFiltered() throws Exception {
        List<PipelineTrial.Result> results = PipelineTrial.run("p", config(), engine, List.of(preview()), List.of(
                Map.of("path", "plant/a", "value", 4.0),
                Map.of("path", "plant/b", "value", 0.0)), NOW);

        assertThat(results.get(0).transforms()).containsExactly(Map.entry("inverse", 0.25),
                Map.entry("label", "plant/a=0.25"));
        assertThat(results.get(1).transforms()).as("the filter turned it away").isEmpty();
    }

    @Test
    void aFilterThatDoesNotCompileIsRefusedBeforeAnyEvent() throws Exception {
        PipelineConfig bad = new PipelineConfig(true, config().trigger(), java.util.Optional.of("nope > 1"),
                List.of(), config().outputs());
        assertThatThrownBy(() -> PipelineTrial.run("p", bad, engine, List.of(preview()),
                List.of(Map.of("path", "plant/a", "value", 1.0)), NOW))
                .isInstanceOf(ExpressionException.class).hasMessageContaining("nope");
    }
}
