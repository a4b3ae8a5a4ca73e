package io.qubiq.pipeline.config;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.pipeline.expr.ExpressionEngine;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One pipeline under {@code pipelines.<id>}. Validation compiles every expression in the same
 * sandbox the pipeline runs in, so an expression that would reach a Java class, a file or a
 * process, or names a variable the trigger does not offer, fails the configuration load with the
 * key path of the expression.
 */
@Doc("A pipeline: a trigger, an optional filter and transforms, and one or more outputs. See docs/pipelines.md.")
public record PipelineConfig(
        @Doc("Whether the pipeline runs. An operator's enable or disable, kept in the data directory, wins over"
                + " this value until the configured value changes.")
        @Default("true")
        boolean enabled,

        @Doc("What starts the pipeline.")
        TriggerConfig trigger,

        @Doc("Expression that must be true for an event to continue, such as quality == 'GOOD'.")
        Optional<String> filter,

        @Doc("Named values computed in order; each can use the ones before it.")
        @Default("[]")
        List<TransformConfig> transforms,

        @Doc("Where events go: one item per event per output, through the connection's store-and-forward"
                + " channel.")
        List<OutputConfig> outputs) implements ConfigChecked {

    private static final String NAME = "[A-Za-z][A-Za-z0-9_]*";

    /** Every variable the outputs of this pipeline can read: the trigger's, the common ones, the transforms'. */
    public Set<String> variables() {
        Set<String> names = new LinkedHashSet<>(EventVariables.of(trigger.kind()));
        transforms.forEach(transform -> names.add(transform.name()));
        return names;
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (outputs.isEmpty()) {
            violations.add(new Violation("outputs", "a pipeline needs at least one output"));
        }
        ExpressionEngine engine = ExpressionEngine.forValidation();
        Set<String> known = new LinkedHashSet<>(EventVariables.of(trigger.kind()));
        ExpressionCheck check = new ExpressionCheck(engine, "", known, violations);
        filter.ifPresent(source -> check.expression("filter", source));
        for (int i = 0; i < transforms.size(); i++) {
            TransformConfig transform = transforms.get(i);
            String key = "transforms[" + i + "]";
            check.expression(key + ".expression", transform.expression());
            if (!transform.name().matches(NAME)) {
                violations.add(new Violation(key + ".name", "\"" + transform.name()
                        + "\" is not a name: letters, digits and _, starting with a letter"));
            } else if (known.contains(transform.name())) {
                violations.add(new Violation(key + ".name", "\"" + transform.name()
                        + "\" is already a variable here; pick another name"));
            }
            known.add(transform.name());
        }
        for (int i = 0; i < outputs.size(); i++) {
            outputs.get(i).checkExpressions(new ExpressionCheck(engine, "outputs[" + i + "].", known, violations));
        }
        return violations;
    }
}
