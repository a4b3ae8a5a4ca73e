package io.qubiq.pipeline.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What one evaluation may reach, build and spend: property access by computed names, sizes and time. */
class ExpressionLimitsTest {

    private static final Set<String> VARS = Set.of("path", "value", "json", "now");
    private static final Instant T = Instant.parse("2026-11-30T08:00:00Z");

    private final ExpressionEngine engine = new ExpressionEngine(path -> Optional.empty());

    private Scope scope() {
        return new Scope(Map.of("path", "line1/level", "value", 42.5, "json",
                Map.of("sensor", Map.of("temp", 21.5), "list", List.of(1, 2, 3)), "now", T));
    }

    @ParameterizedTest
    @ValueSource(strings = {"path['cl'+'ass']", "path['getCl' + 'ass']", "value['cl' + 'ass']",
            "now['epoch' + 'Second']", "path[lower('CLASS')]", "path['by'+'tes']",
            "path['empty']", "json['cl'+'ass']['name']"})
    void aPropertyOfAValueThatIsNoMapCannotBeReadByAComputedName(String source) throws Exception {
        Expression expression = engine.compile(source, VARS);

        assertThatThrownBy(() -> expression.evaluate(scope())).isInstanceOf(ExpressionException.class)
                .hasMessageContaining(source);
    }

    @Test
    void aRefusedPropertyIsNamedWithWhatMayBeRead() throws Exception {
        assertThatThrownBy(() -> engine.compile("path['cl'+'ass']", VARS).evaluate(scope()))
                .isInstanceOf(ExpressionException.class)
                .hasMessageContaining("\"class\"").hasMessageContaining("String")
                .hasMessageContaining("only map fields and list elements");
    }

    @Test
    void mapFieldsAndListElementsStillReadByComputedNames() throws Exception {
        assertThat(engine.compile("json['sen' + 'sor']['temp']", VARS).evaluate(scope())).isEqualTo(21.5);
        assertThat(engine.compile("json.list[1 + 1]", VARS).evaluate(scope())).isEqualTo(3);
        assertThat(engine.compile("json['missing']", VARS).evaluate(scope())).isNull();
        assertThat(engine.compile("json.sensor['cl' + 'ass']", VARS).evaluate(scope())).as("a map has no such field")
                .isNull();
        assertThat(engine.compile("size(json.list) + size(path)", VARS).evaluate(scope())).isEqualTo(14);
    }

    @Test
    void aRangeAboveTheLimitIsRefusedWithoutRunningOutOfMemory() throws Exception {
        assertThatThrownBy(() -> engine.compile("{'x': 1 .. 30000000}", VARS).evaluate(scope()))
                .isInstanceOf(ExpressionException.class).hasMessageContaining("range")
                .hasMessageContaining(Long.toString(ExpressionLimits.DEFAULT.maxElements()));
        assertThatThrownBy(() -> engine.compile("[1 .. 60000, 1 .. 60000]", VARS).evaluate(scope()))
                .as("every collection built counts toward one budget").isInstanceOf(ExpressionException.class)
                .hasMessageContaining("elements");
        assertThat(engine.compile("size(1 .. 1000)", VARS).evaluate(scope())).isEqualTo(1000);
        assertThat(engine.compile("[1 .. 3]", VARS).evaluate(scope())).isEqualTo(List.of(List.of(1, 2, 3)));
    }

    @Test
    void aStringAboveTheLimitIsRefused() throws Exception {
        String chunk = "'" + "x".repeat(100_000) + "'";
        String source = String.join(" + ", java.util.Collections.nCopies(12, chunk));
        assertThatThrownBy(() -> engine.compile(source, VARS).evaluate(scope()))
                .isInstanceOf(ExpressionException.class).hasMessageContaining("characters");
    }

    @Test
    void hugeNumbersFromShiftsOrRoundingAreRefused() throws Exception {
        assertThatThrownBy(() -> engine.compile("1H << 2000000000", VARS).evaluate(scope()))
                .isInstanceOf(ExpressionException.class);
        assertThatThrownBy(() -> engine.compile("round(value, 999999999)", VARS).evaluate(scope()))
                .isInstanceOf(ExpressionException.class).hasMessageContaining("digits");
        assertThat(engine.compile("round(value, 1)", VARS).evaluate(scope())).isEqualTo(42.5);
    }

    @Test
    void aSlowExpressionIsStoppedByTheTimeBudget() throws Exception {
        ExpressionEngine strict = new ExpressionEngine(path -> Optional.empty(),
                new ExpressionLimits(100_000, 1_000_000, Duration.ofMillis(50)));
        Scope scope = scope();
        scope.set("path", "a".repeat(30) + "!");
        Expression backtracking = strict.compile("path =~ '(.*a){10}'", VARS); // seconds of backtracking unchecked

        long start = System.nanoTime();
        assertThatThrownBy(() -> backtracking.evaluate(scope)).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("time budget").hasMessageContaining("50 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(strict.compile("path =~ 'a+!'", VARS).evaluate(scope)).isEqualTo(true);
    }
}
