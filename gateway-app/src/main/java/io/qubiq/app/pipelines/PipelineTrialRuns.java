package io.qubiq.app.pipelines;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundKinds;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.PipelineTrials;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.PipelineTrial;
import io.qubiq.pipeline.config.EventVariables;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.config.TriggerConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.trigger.MqttMessageTrigger;
import io.qubiq.pipeline.trigger.TagChangeTrigger;
import io.qubiq.tagbus.TagBus;
import io.qubiq.tagbus.TagPattern;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The console's "check" and "try" of a pipeline being edited. An expression compiles in the validation
 * sandbox with the variables of its trigger and the transforms before it, as the configuration load
 * compiles it. A try binds the section with the configuration binder (every problem at its key path),
 * builds each output's mapper as the running pipeline does ({@link OutboundKind#mapper}), and runs the
 * events through {@link PipelineTrial}: the items are rendered with the kind's codec preview and never
 * reach a channel, so no destination and no channel counter sees them.
 *
 * <p>Events: a tag trigger takes the latest value of each matching tag on the tag bus, in path order, at
 * most {@link #TAG_EVENTS}; an interval trigger one event; an MQTT trigger the message the caller gives.
 * Stateless apart from the references it reads; safe for concurrent requests.
 */
public final class PipelineTrialRuns implements PipelineTrials {

    /** How many tag values a try of a tag trigger runs at most. */
    public static final int TAG_EVENTS = 20;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern POSITION = Pattern.compile("@(\\d+:\\d+)");

    private final TagBus bus;
    /** The outbound connections running now. */
    private final Supplier<Map<String, OutboundConnection<?>>> outbound;
    private final Map<String, String> env;
    private final Clock clock;

    public PipelineTrialRuns(TagBus bus, Supplier<Map<String, OutboundConnection<?>>> outbound, Map<String, String> env,
                             Clock clock) {
        this.bus = bus;
        this.outbound = outbound;
        this.env = env;
        this.clock = clock;
    }

    @Override
    public ExpressionCheck checkExpression(String expression, Map<String, Object> trigger, List<String> transforms,
                                           boolean template) {
        Set<String> known = new LinkedHashSet<>(EventVariables.of(kindOf(trigger)));
        known.addAll(transforms);
        ExpressionEngine engine = ExpressionEngine.forValidation();
        try {
            if (template) {
                engine.compileTemplate(expression, known);
            } else {
                engine.compile(expression, known);
            }
            return new ExpressionCheck(true, Optional.empty(), Optional.empty());
        } catch (ExpressionException e) {
            Matcher at = POSITION.matcher(String.valueOf(e.getMessage()));
            return new ExpressionCheck(false, Optional.of(e.getMessage()),
                    at.find() ? Optional.of(at.group(1)) : Optional.empty());
        }
    }

    private static TriggerConfig.Kind kindOf(Map<String, Object> trigger) {
        if (trigger.containsKey("tags")) {
            return TriggerConfig.Kind.TAGS;
        }
        if (trigger.containsKey("interval_ms")) {
            return TriggerConfig.Kind.INTERVAL;
        }
        if (trigger.containsKey("mqtt")) {
            return TriggerConfig.Kind.MQTT;
        }
        throw new RequestFailure.InvalidRequest("'trigger' needs one of tags, interval_ms or mqtt, like"
                + " {\"tags\": [\"line1/**\"]}");
    }

    @Override
    public Outcome tryPipeline(String id, Object pipeline, Optional<Message> message) {
        String key = "pipelines." + id;
        PipelineConfig config;
        try {
            String text = JSON.writeValueAsString(Map.of("pipelines", Map.of(id, pipeline)));
            config = ConfigLoader.parse("the tried pipeline", text, TrialSection.class, env).pipelines().get(id);
        } catch (JsonProcessingException e) {
            throw new RequestFailure.InvalidRequest("'pipeline' is not a JSON value: " + e.getOriginalMessage());
        } catch (ConfigException e) {
            return new Invalid(key + " is not a valid pipeline", e.problems().stream()
                    .map(p -> new ConfigAccess.Problem(p.keyPath(), p.message(), p.line(), p.column())).toList());
        }
        ExpressionEngine engine = new ExpressionEngine(path -> bus.latestValues().latest(TagPath.of(path)));
        List<ConfigAccess.Problem> problems = new ArrayList<>();
        List<PipelineTrial.Preview<?>> previews = new ArrayList<>();
        for (int i = 0; i < config.outputs().size(); i++) {
            preview(key + ".outputs[" + i + "]", config.outputs().get(i), config.variables(), engine, problems)
                    .ifPresent(previews::add);
        }
        if (!problems.isEmpty()) {
            return new Invalid(key + " is not a valid pipeline", problems);
        }
        try {
            List<PipelineTrial.Result> results = PipelineTrial.run(id, config, engine, previews,
                    events(config.trigger(), message), clock.instant());
            return new Tried(results.stream().map(PipelineTrialRuns::event).toList(), TAG_EVENTS);
        } catch (ExpressionException e) {
            return new Invalid(e.getMessage(), List.of(new ConfigAccess.Problem(key, e.getMessage(), 0, 0)));
        }
    }

    private Optional<PipelineTrial.Preview<?>> preview(String key, OutputConfig output, Set<String> variables,
                                                      ExpressionEngine engine, List<ConfigAccess.Problem> problems) {
        OutboundKind<?, ?, ?> kind = OutboundKinds.of(output);
        OutboundConnection<?> connection = outbound.get().get(output.connection());
        if (connection == null || connection.kind() != kind) {
            problems.add(new ConfigAccess.Problem(key + ".connection", connection == null
                    ? "no outbound connection \"" + output.connection() + "\"; the outbound connections are "
                    + String.join(", ", outbound.get().keySet())
                    : "connection " + output.connection() + " is a " + connection.kind().name()
                    + " connection; write a " + connection.kind().name() + " mapping for it", 0, 0));
            return Optional.empty();
        }
        try {
            return Optional.of(preview(kind, key, output, engine, variables));
        } catch (ExpressionException e) {
            problems.add(new ConfigAccess.Problem(key, e.getMessage(), 0, 0));
            return Optional.empty();
        }
    }

    private static <O extends OutputConfig, T> PipelineTrial.Preview<T> preview(
            OutboundKind<?, O, T> kind, String key, OutputConfig output, ExpressionEngine engine,
            Set<String> variables) throws ExpressionException {
        return new PipelineTrial.Preview<>(output.connection(), kind.name(),
                kind.mapper(key, kind.outputType().cast(output), engine, variables), kind.codec()::preview);
    }

    private List<Map<String, Object>> events(TriggerConfig trigger, Optional<Message> message) {
        return switch (trigger.kind()) {
            case TAGS -> {
                List<TagPattern> patterns = trigger.tags().orElseThrow().stream().map(TagPattern::compile).toList();
                yield TagChangeTrigger.variables(bus.latestValues().snapshot().stream()
                        .filter(value -> patterns.stream().anyMatch(pattern -> pattern.matches(value.path())))
                        .sorted(Comparator.comparing(TagValue::path))
                        .limit(TAG_EVENTS)
                        .toList());
            }
            case INTERVAL -> List.of(Map.of());
            case MQTT -> {
                Message given = message.orElseThrow(() -> new RequestFailure.InvalidRequest("an MQTT trigger's try"
                        + " needs a message: {\"message\": {\"topic\": \"plant/line1\", \"payload\": \"{...}\"}}"));
                if (given.topic() == null || given.topic().isBlank()) {
                    throw new RequestFailure.InvalidRequest("the message needs a topic");
                }
                byte[] payload = (given.payload() == null ? "" : given.payload()).getBytes(StandardCharsets.UTF_8);
                yield List.of(MqttMessageTrigger.variables(MqttDeviceMessages.message(given.topic(), payload,
                        clock.instant())));
            }
        };
    }

    private static TriedEvent event(PipelineTrial.Result result) {
        Map<String, Object> transforms = new LinkedHashMap<>(); // in the order they ran
        result.transforms().forEach((name, value) -> transforms.put(name, plain(value)));
        return new TriedEvent(plain(result.variables()), result.outcome().name().toLowerCase(java.util.Locale.ROOT),
                result.error(), transforms, result.outputs().stream()
                .map(o -> new TriedOutput(o.connection(), o.kind(), o.item())).toList());
    }

    /** Values JSON can carry as they are; anything else (times, arrays) as its text. */
    @SuppressWarnings("unchecked")
    private static <T> T plain(T value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.entrySet().stream().sorted(Comparator.comparing(e -> String.valueOf(e.getKey())))
                    .forEach(e -> copy.put(String.valueOf(e.getKey()), plain(e.getValue())));
            return (T) copy;
        }
        if (value instanceof Collection<?> list) {
            return (T) list.stream().map(PipelineTrialRuns::plain).toList();
        }
        return (T) (value instanceof Instant instant ? instant.toString() : String.valueOf(value));
    }
}
