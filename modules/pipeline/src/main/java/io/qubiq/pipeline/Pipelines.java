package io.qubiq.pipeline;

import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.Periodic;
import io.qubiq.core.time.Ticker;
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
 * them; stop closes the triggers, then saves the state. State is also saved every
 * {@link #SAVE_INTERVAL} and after an operator's enable/disable.
 *
 * <p>One pipeline that cannot start (its output cannot be built, its trigger cannot subscribe) is
 * logged at ERROR once and named by {@link #failures}; the others start and run. An output whose
 * channel is not running is no reason to fail: it counts its items refused (see {@link ChannelOutput}).
 *
 * <p>One pipeline's configuration can change while the others run ({@link #apply}).
 *
 * <p>Threading: start, stop and {@link #apply} serialised on this object (the lifecycle thread, the
 * configuration API); {@link #statuses}, {@link #status} and {@link #enable} from any thread (the API). One scheduler thread ({@code pipeline-timer}) runs
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
    private final Ticker ticker;
    private final EventPublisher events;
    private final Map<String, Pipeline> pipelines = new LinkedHashMap<>();
    private final Map<String, Trigger> triggers = new LinkedHashMap<>();
    private final Map<String, String> failures = new LinkedHashMap<>();
    /** The saved state of each pipeline that failed to start, written back unchanged on every save. */
    private final Map<String, PipelineState> notStarted = new LinkedHashMap<>();
    private ScheduledExecutorService scheduler;
    private ExpressionEngine engine;

    public Pipelines(Map<String, PipelineConfig> configs, Path stateDir, TagBus bus, DeviceMessages messages,
                     OutputFactory outputs, Clock clock) {
        this(configs, stateDir, bus, messages, outputs, clock, EventPublisher.none());
    }

    /** @param events where an event that fails (its output not produced) is reported as a loss */
    public Pipelines(Map<String, PipelineConfig> configs, Path stateDir, TagBus bus, DeviceMessages messages,
                     OutputFactory outputs, Clock clock, EventPublisher events) {
        this(configs, stateDir, bus, messages, outputs, clock, Ticker.system(), events);
    }

    /**
     * @param clock  the wall clock: stamps events and the saved due times of timers
     * @param ticker the monotonic clock that timer intervals are measured on
     * @param events where an event that fails (its output not produced) is reported as a loss
     */
    public Pipelines(Map<String, PipelineConfig> configs, Path stateDir, TagBus bus, DeviceMessages messages,
                     OutputFactory outputs, Clock clock, Ticker ticker, EventPublisher events) {
        this.ticker = ticker;
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
        Map<String, PipelineState> saved = store.load(); // first: a refused file starts nothing
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "pipeline-timer");
            thread.setDaemon(true);
            return thread;
        });
        engine = new ExpressionEngine(path -> bus.latestValues().latest(TagPath.of(path)));
        for (Map.Entry<String, PipelineConfig> entry : configs.entrySet()) {
            String id = entry.getKey();
            PipelineState state = saved.getOrDefault(id, PipelineState.fresh(entry.getValue().enabled()));
            try {
                startOne(id, entry.getValue(), state, engine);
            } catch (Exception e) {
                String reason = e.getMessage() != null ? e.getMessage() : e.toString();
                failures.put(id, reason);
                notStarted.put(id, state);
                LOG.error("Pipeline {} failed to start: {}; the other pipelines run without it", id, reason);
                LOG.debug("Start-up failure of pipeline {}", id, e);
            }
        }
        scheduler.scheduleWithFixedDelay(Periodic.guarded(this::saveQuietly, e -> LOG.error("Saving the pipelines' state failed: {}; it is saved again at the next interval", e.toString(), e)), SAVE_INTERVAL.toMillis(),
                SAVE_INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Builds one pipeline's outputs, starts its trigger, and only then counts it as running. */
    private void startOne(String id, PipelineConfig config, PipelineState state, ExpressionEngine engine)
            throws Exception {
        Pipeline pipeline = new Pipeline(id, config, engine, outputsOf(id, config), state, clock, events);
        Trigger trigger = trigger(config.trigger());
        trigger.start(pipeline);
        pipelines.put(id, pipeline);
        triggers.put(id, trigger);
        LOG.info("Pipeline {}: {} -> {} ({})", id, config.trigger().describe(),
                config.outputs().stream().map(OutputConfig::connection).toList(),
                pipeline.enabled() ? "enabled" : "disabled");
    }

    private List<PipelineOutput> outputsOf(String id, PipelineConfig config) throws Exception {
        List<PipelineOutput> built = new ArrayList<>();
        for (int i = 0; i < config.outputs().size(); i++) {
            built.add(outputs.create(id, i, config.outputs().get(i), config.variables(), engine));
        }
        return built;
    }

    /**
     * Applies one pipeline's changed configuration while the others run ({@code next} empty: removed):
     * <ul>
     *   <li>added: built and started as at start-up, from the state saved for that id, if any;</li>
     *   <li>removed: its trigger is closed (what it still queued is discarded, as at a stop, and reported
     *       by the tag bus) and it is no longer saved;</li>
     *   <li>changed: the new outputs and expressions are built first; the running pipeline takes them
     *       between two deliveries with its counters ({@link Pipeline#reconfigure}). Its trigger is kept,
     *       queue and all, unless the trigger's configuration changed: then the old one is closed and the
     *       new one started, and if that fails the old configuration's trigger is started again.</li>
     * </ul>
     * A pipeline that failed to start is retried with its new configuration.
     *
     * @throws IllegalStateException before {@link #start}
     * @throws Exception the new configuration cannot run (an output or the trigger cannot be built or
     *     started): the pipeline runs as it did, or, for one added, not at all
     */
    public synchronized void apply(String id, Optional<PipelineConfig> next) throws Exception {
        if (engine == null) {
            throw new IllegalStateException("the pipelines have not started");
        }
        Pipeline running = pipelines.get(id);
        if (next.isEmpty()) {
            Trigger trigger = triggers.remove(id);
            if (trigger != null) {
                trigger.close();
            }
            pipelines.remove(id);
            configs.remove(id);
            failures.remove(id);
            notStarted.remove(id);
            LOG.info("Pipeline {} removed", id);
            return;
        }
        PipelineConfig config = next.get();
        if (running == null) {
            PipelineState state = notStarted.getOrDefault(id, PipelineState.fresh(config.enabled()));
            startOne(id, config, state, engine);
            configs.put(id, config);
            failures.remove(id);
            notStarted.remove(id);
            return;
        }
        PipelineConfig was = running.config();
        List<PipelineOutput> built = outputsOf(id, config);
        if (was.trigger().equals(config.trigger())) {
            running.reconfigure(config, engine, built);
        } else {
            Trigger replacement = trigger(config.trigger());
            running.reconfigure(config, engine, built);
            triggers.remove(id).close();
            try {
                replacement.start(running);
            } catch (Exception e) {
                Trigger old = trigger(was.trigger());
                running.reconfigure(was, engine, outputsOf(id, was));
                old.start(running);
                triggers.put(id, old);
                throw e;
            }
            triggers.put(id, replacement);
        }
        configs.put(id, config);
        LOG.info("Pipeline {} changed live: {} -> {}", id, config.trigger().describe(),
                config.outputs().stream().map(OutputConfig::connection).toList());
    }

    /** The configuration pipeline {@code id} runs with (or failed to start with), if there is one. */
    public synchronized Optional<PipelineConfig> config(String id) {
        return Optional.ofNullable(configs.get(id));
    }

    /**
     * The pipelines that failed to start, each with the reason; they do not run and are not listed by
     * {@link #statuses}, and their saved state is kept as it was for the next start.
     */
    public synchronized Map<String, String> failures() {
        return Map.copyOf(failures);
    }

    /**
     * The running pipelines whose trigger's own thread failed (an MQTT trigger's queue thread) and is
     * being restarted, each with what killed it, until it handles events again.
     */
    public synchronized Map<String, String> failingTriggers() {
        Map<String, String> failing = new java.util.TreeMap<>();
        triggers.forEach((id, trigger) -> trigger.failure().ifPresent(error -> failing.put(id, error)));
        return failing;
    }

    private Trigger trigger(TriggerConfig config) {
        return switch (config.kind()) {
            case TAGS -> new TagChangeTrigger(bus, config.tags().orElseThrow());
            case INTERVAL -> new IntervalTrigger(scheduler, Duration.ofMillis(config.intervalMs().orElseThrow()),
                    clock, ticker);
            case MQTT -> new MqttMessageTrigger(messages, config.mqtt().orElseThrow().connection(),
                    config.mqtt().orElseThrow().topic(), events, clock);
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
        if (!pipelines.isEmpty() || !notStarted.isEmpty()) {
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

    /** True from a failed save until one succeeds; touched by whoever saves (one at a time). */
    private volatile boolean saveFailing;

    private void saveQuietly() {
        Map<String, PipelineState> states;
        synchronized (this) {
            states = new LinkedHashMap<>(notStarted);
        }
        for (Pipeline pipeline : snapshot()) {
            states.put(pipeline.id(), pipeline.state());
        }
        try {
            store.save(states);
            if (saveFailing) {
                saveFailing = false;
                LOG.info("Pipeline state is saved again to {}", store.file());
            }
        } catch (RuntimeException e) {
            if (!saveFailing) { // once per spell: it is retried every few seconds, and costs statistics only
                saveFailing = true;
                LOG.warn("Saving pipeline state failed: {}; retried until it succeeds (only counters and enabled"
                        + " flags are kept there, no data)", e.getMessage());
            }
        }
    }
}
