package io.qubiq.pipeline.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class SandboxedExpressionsTest {

    private static final Set<String> VARS = Set.of("path", "value", "quality", "source_time", "json", "now");
    private static final Instant T = Instant.parse("2026-11-30T08:00:00Z");

    private final ExpressionEngine engine = new ExpressionEngine(path -> path.equals("line1/speed")
            ? Optional.of(TagValue.good(TagPath.of(path), 1450.0, T)) : Optional.empty());

    private Scope scope() {
        return new Scope(Map.of("path", "line1/level", "value", 42.5, "quality", "GOOD", "source_time", T,
                "json", Map.of("sensor", Map.of("temp", 21.5)), "now", T));
    }

    @Test
    void arithmeticComparisonsAndTheTernaryEvaluate() throws Exception {
        assertThat(engine.compile("value * 2 + 1", VARS).evaluate(scope())).isEqualTo(86.0);
        assertThat(engine.compile("value > 40 && quality == 'GOOD'", VARS).test(scope())).isTrue();
        assertThat(engine.compile("value > 50 ? 'high' : 'ok'", VARS).evaluate(scope())).isEqualTo("ok");
        assertThat(engine.compile("value > 50 ? abs(value) : round(value)", VARS).evaluate(scope())).isEqualTo(43L);
        assertThat(engine.compile("value > 50 ? 1:round(value)", VARS).evaluate(scope())).isEqualTo(43L);
    }

    @Test
    void aLongStringLiteralCompilesInsteadOfOverflowingTheStack() throws Exception {
        String big = "x".repeat(100_000);
        assertThat(engine.compile("'" + big + "' + path", VARS).evaluate(scope())).isEqualTo(big + "line1/level");
        assertThat(engine.compile("\"" + big + "\\\"\"", VARS).evaluate(scope())).isEqualTo(big + "\"");
    }

    @Test
    void functionsAndMapFieldsAreReachable() throws Exception {
        assertThat(engine.compile("round(value / 3, 2)", VARS).evaluate(scope())).isEqualTo(14.17);
        assertThat(engine.compile("tag('line1/speed')", VARS).evaluate(scope())).isEqualTo(1450.0);
        assertThat(engine.compile("tag('line1/unknown')", VARS).evaluate(scope())).isNull();
        assertThat(engine.compile("json.sensor.temp", VARS).evaluate(scope())).isEqualTo(21.5);
        assertThat(engine.compile("upper(quality) + '/' + str(value)", VARS).evaluate(scope())).isEqualTo("GOOD/42.5");
        assertThat(engine.compile("{'tag': path, 'v': value}", VARS).evaluate(scope()))
                .isEqualTo(Map.of("tag", "line1/level", "v", 42.5));
        assertThat(engine.compile("[1, 2, value]", VARS).evaluate(scope())).asList().hasSize(3);
        assertThat(engine.compile("epoch_ms(source_time)", VARS).evaluate(scope())).isEqualTo(T.toEpochMilli());
    }

    @Test
    void templatesRenderPlaceholders() throws Exception {
        Functions fn = engine.functions();
        assertThat(engine.compileTemplate("gw/{{path}}/value", VARS).render(scope(), fn)).isEqualTo("gw/line1/level/value");
        assertThat(engine.compileTemplate("fixed/topic", VARS).render(scope(), fn)).isEqualTo("fixed/topic");
        assertThat(engine.compileTemplate("{{ round(value) }} units", VARS).render(scope(), fn)).isEqualTo("43 units");
        assertThatThrownBy(() -> engine.compileTemplate("gw/{{path", VARS)).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("without a closing");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "new('java.io.File', '/etc/passwd')",
            "new('java.lang.ProcessBuilder', ['sh', '-c', 'id'])",
            "java.lang.Runtime.getRuntime().exec('id')",
            "path.getClass().forName('java.lang.Runtime')",
            "path.class",
            "path.class.forName('java.lang.System')",
            "''.class",
            "path['class']",
            "System.exit(1)",
            "exec('rm -rf /')",
            "Math:abs(-1)",
            "java.lang.System:exit(1)",
            "x = 1",
            "value = 3",
            "for (var i : [1,2]) { i }",
            "while (true) { 1 }",
            "var a = 1",
            "function(x) { x }",
            "#pragma jexl.import java.io\n1",
            "files.readAllLines(path)",
            "value.toString()",
    })
    void anExpressionReachingForAClassAFileOrAProcessIsRejectedWhenItCompiles(String source) {
        assertThatThrownBy(() -> engine.compile(source, VARS)).isInstanceOf(ExpressionException.class);
    }

    @Test
    void aTemplateReachingForAClassIsRejected() {
        assertThatThrownBy(() -> engine.compileTemplate("gw/{{path.class.name}}", VARS))
                .isInstanceOf(ExpressionException.class);
        assertThatThrownBy(() -> engine.compileTemplate("gw/{{new('java.io.File', '/')}}", VARS))
                .isInstanceOf(ExpressionException.class);
    }

    @Test
    void anUnknownVariableIsNamedWithTheOnesThatExist() {
        assertThatThrownBy(() -> engine.compile("valu * 2", VARS)).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("\"valu\"").hasMessageContaining("path, quality");
    }

    @Test
    void evaluationFailuresAreTypedAndNameTheExpression() throws Exception {
        Scope nullValue = new Scope(Map.of("path", "a", "quality", "BAD", "source_time", T, "json", Map.of(),
                "now", T));
        nullValue.set("value", null);
        assertThatThrownBy(() -> engine.compile("value * 2", VARS).evaluate(nullValue))
                .isInstanceOf(ExpressionException.class).hasMessageContaining("value * 2");
        assertThatThrownBy(() -> engine.compile("value", VARS).test(scope()))
                .isInstanceOf(ExpressionException.class).hasMessageContaining("true or false");
    }

    @Test
    void evaluationCannotReachTheRuntimeEvenThroughAValueItWasGiven() throws Exception {
        Scope sneaky = scope();
        sneaky.set("json", Runtime.getRuntime());
        assertThatThrownBy(() -> engine.compile("json.availableProcessors", VARS).evaluate(sneaky))
                .isInstanceOf(ExpressionException.class);
        assertThat(List.of()).isEmpty();
    }
}
