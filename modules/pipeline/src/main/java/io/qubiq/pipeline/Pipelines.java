package io.qubiq.pipeline;

import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.TagPath;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.config.TriggerConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.trigger.DeviceMessages;
import io.qubiq.pipeline.trigger.IntervalTrigger;
import io.qubiq.pipeline.trigger.MqttMessageTrigger;
import io.qubiq.pipeline.trigger.TagChangeTrigger;
import io.qubiq.pipeline.trigger.Trigger;
import io.qubiq.tagbus.TagBus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every configured pipeline, with its trigger, outputs and lasting state. Start builds and starts
 * them (the channels they write to must already run); stop closes the triggers, then saves the
 * state. State is also saved every {@link #SAVE_INTERVAL} and after an operator's enable/disable.
 *
 * <p>Threading: start and stop from the lifecycle thread; {@link #statuses}, {@link #status} and
 * {@link #enable} from any thread (the API). One scheduler thread ({@code pipeline-timer}) runs
 * the interval triggers and the periodic save.
 */
public final class Pipelines implements Component {

    /** How often the pipelines' counters are written to the data directory. */
    public static final Duration SAVE_INTERVAL = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(Pipelines.class);

    /** Builds the output of a pipeline for its connection: the application knows the channels and item types. */
    @FunctionalInterface
    public interface OutputFactory {
        /**
         * @param variables what the pipeline's events offer its expressions ({@link PipelineConfig#variables})
         */
        PipelineOutput create(String pipelineId, int index, OutputConfig output, java.util.Set<String> variables,
                              ExpressionEngine engine) throws Exception;
    }

    private final Map<String, PipelineConfig> configs;
    private final PipelineStateStore store;
    private final TagBus bus;
    private final DeviceMessages messages;
    private final OutputFactory outputs;
    private final Clock clock;
    private final EventPublisher events;
    private final Map<String, Pipeline> pipelines = new LinkedHashMap<>();
    private final Map<String, Trigger> triggers = new LinkedHashMap<>();
    private ScheduledExecutorService scheduler;

    public Pipelines(Map<String, PipelineConfig> configs, Path stateDir, TagBus bus, DeviceMessages messages,
                     OutputFactory outputs, Clock clock) {
        this(configs, stateDir, bus, messages, outputs, clock, EventPublisher.none());
    }

    /** @param events where an event that fails (its output not produced) is reported as a loss */
    public Pipelines(Map<String, PipelineConfig> configs, Path stateDir, TagBus bus, DeviceMessages messages,
                     OutputFactory outputs, Clock clock, EventPublisher events) {
        this.events = events;
        this.configs = new LinkedHashMap<>(configs);
        this.store = new PipelineStateStore(stateDir);
        this.bus = bus;
        this.messages = messages;
        this.outputs = outputs;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "pipelines";
    }

    @Override
    public synchronized void start() throws Exception {
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "pipeline-timer");
            thread.setDaemon(true);
            return thread;
        });
        Map<String, PipelineState> saved = store.load();
        ExpressionEngine engine = new ExpressionEngine(path -> bus.latestValues().latest(TagPath.of(path)));
        for (Map.Entry<String, PipelineConfig> entry : configs.entrySet()) {
            String id = entry.getKey();
            PipelineConfig config = entry.getValue();
            List<PipelineOutput> built = new ArrayList<>();
            for (int i = 0; i < config.outputs().size(); i++) {
                built.add(outputs.create(id, i, config.outputs().get(i), config.variables(), engine));
            }
            Pipeline pipeline = new Pipeline(id, config, engine, built,
                    saved.getOrDefault(id, PipelineState.fresh(config.enabled())), clock, events);
            pipelines.put(id, pipeline);
        }
        for (Pipeline pipeline : pipelines.values()) {
            Trigger trigger = trigger(pipeline.config().trigger());
            trigger.start(pipeline);
            triggers.put(pipeline.id(), trigger);
            LOG.info("Pipeline {}: {} -> {} ({})", pipeline.id(), pipeline.config().trigger().describe(),
                    pipeline.config().outputs().stream().map(OutputConfig::connection).toList(),
                    pipeline.enabled() ? "enabled" : "disabled");
        }
        scheduler.scheduleWithFixedDelay(this::saveQuietly, SAVE_INTERVAL.toMillis(), SAVE_INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private Trigger trigger(TriggerConfig config) {
        return switch (config.kind()) {
            case TAGS -> new TagChangeTrigger(bus, config.tags().orElseThrow());
            case INTERVAL -> new IntervalTrigger(scheduler, Duration.ofMillis(config.intervalMs().orElseThrow()), clock);
            case MQTT -> new MqttMessageTrigger(messages, config.mqtt().orElseThrow().connection(),
                    config.mqtt().orElseThrow().topic());
        };
    }

    @Override
    public synchronized void stop() throws InterruptedException {
        triggers.values().forEach(Trigger::close);
        triggers.clear();
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        }
        if (!pipelines.isEmpty()) {
            saveQuietly();
        }
    }

    public List<PipelineStatus> statuses() {
        List<PipelineStatus> statuses = new ArrayList<>();
        for (Pipeline pipeline : snapshot()) {
            statuses.add(statusOf(pipeline));
        }
        return statuses;
    }

    public Optional<PipelineStatus> status(String id) {
        return Optional.ofNullable(pipeline(id)).map(this::statusOf);
    }

    /** An operator enables or disables a pipeline; kept across restarts. */
    public PipelineStatus enable(String id, boolean enabled) {
        Pipeline pipeline = pipeline(id);
        if (pipeline == null) {
            throw new NoSuchElementException("no pipeline " + id);
        }
        pipeline.enable(enabled);
        saveQuietly();
        return statusOf(pipeline);
    }

    private PipelineStatus statusOf(Pipeline pipeline) {
        Trigger trigger;
        synchronized (this) {
            trigger = triggers.get(pipeline.id());
        }
        return pipeline.status(trigger == null ? 0 : trigger.dropped());
    }

    private synchronized Pipeline pipeline(String id) {
        return pipelines.get(id);
    }

    private synchronized List<Pipeline> snapshot() {
        return List.copyOf(pipelines.values());
    }

    private void saveQuietly() {
        Map<String, PipelineState> states = new LinkedHashMap<>();
        for (Pipeline pipeline : snapshot()) {
            states.put(pipeline.id(), pipeline.state());
        }
        try {
            store.save(states);
        } catch (RuntimeException e) {
            LOG.warn("Saving pipeline state failed: {}", e.getMessage());
        }
    }
}
