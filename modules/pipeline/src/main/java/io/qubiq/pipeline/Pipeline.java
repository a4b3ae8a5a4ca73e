package io.qubiq.pipeline;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.CustodyReceipt;
import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running pipeline: takes the events its trigger delivers, filters and transforms each, maps it
 * for every output, and submits the items of a delivery to the outputs' channels together.
 *
 * <p>Per event: {@code events} counts it; a false filter counts it {@code filtered}; a filter,
 * transform or mapping that fails counts it {@code failed} (with the error as last error, and none
 * of its items submitted to any output: an event reaches all outputs or none; and reported as an
 * {@code expression_failed} loss to the loss ledger); otherwise it counts
 * {@code emitted}. A channel that refuses the items counts them {@code refused} (logged once per
 * connection and kind of refusal, until that connection takes items again). Nothing is dropped
 * without a count and a last error: the store-and-forward rule "nothing silently lost" starts here.
 *
 * <p>A changed configuration is taken live by {@link #reconfigure}: between two deliveries, with its
 * counters, last error and an operator's standing enable choice kept.
 *
 * <p>Threading: {@link #handle} is called by one trigger thread at a time (the tag bus subscriber,
 * the timer, or the MQTT trigger's own queue thread, never the MQTT client's), serialised by this object's
 * lock, which {@link #reconfigure} takes too; {@link #status} and {@link #enable} may be called from any
 * thread.
 */
public final class Pipeline {

    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

    /** What the pipeline does: its configuration compiled, and its outputs. Replaced whole. */
    private record Plan(PipelineConfig config, EventSteps steps, List<PipelineOutput> outputs) {

        static Plan of(PipelineConfig config, ExpressionEngine engine, List<PipelineOutput> outputs)
                throws ExpressionException {
            return new Plan(config, EventSteps.of(config, engine), List.copyOf(outputs));
        }
    }

    private final String id;
    private volatile Plan plan;
    private final Clock clock;
    private final EventPublisher losses;
    private final String runId;
    private final AtomicLong sequence = new AtomicLong();

    private volatile boolean enabled;
    private volatile Optional<Boolean> operatorChoiceOver;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong filtered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong emitted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private volatile Optional<String> lastError;
    private volatile Optional<Instant> lastErrorAt;
    private volatile Optional<Instant> lastEventAt;
    private volatile Optional<Instant> nextRunAt;
    /** Per output connection, the kind of refusal last logged; forgotten once it takes items again. */
    private final Map<String, String> refusalsLogged = new HashMap<>();

    /**
     * @param engine  compiles the filter and transforms (validated at configuration load already)
     * @param outputs one per configured output, in order
     * @param state   where the pipeline left off (its enabled flag reconciled with the configuration)
     * @throws ExpressionException when an expression does not compile (configuration validation missed it)
     */
    public Pipeline(String id, PipelineConfig config, ExpressionEngine engine, List<PipelineOutput> outputs,
                    PipelineState state, Clock clock) throws ExpressionException {
        this(id, config, engine, outputs, state, clock, EventPublisher.none());
    }

    /** @param losses where an event that fails is reported as an {@code expression_failed} loss */
    public Pipeline(String id, PipelineConfig config, ExpressionEngine engine, List<PipelineOutput> outputs,
                    PipelineState state, Clock clock, EventPublisher losses) throws ExpressionException {
        this.losses = losses;
        this.id = id;
        this.clock = clock;
        this.plan = Plan.of(config, engine, outputs);
        this.runId = Long.toString(clock.millis(), 36);
        restore(state);
    }

    /**
     * Takes a changed configuration of this pipeline and the outputs built for it, between two
     * deliveries. Its counters and last error stay; an operator's enable choice stands while the
     * configured {@code enabled} is the one it overrode, else the new configuration's wins.
     *
     * @throws ExpressionException an expression does not compile: nothing changed
     */
    public synchronized void reconfigure(PipelineConfig config, ExpressionEngine engine, List<PipelineOutput> outputs)
            throws ExpressionException {
        Plan next = Plan.of(config, engine, outputs);
        PipelineState now = state();
        plan = next;
        PipelineState reconciled = now.reconciledWith(config.enabled());
        enabled = reconciled.enabled();
        operatorChoiceOver = reconciled.operatorChoiceOver();
    }

    public String id() {
        return id;
    }

    public PipelineConfig config() {
        return plan.config();
    }

    public boolean enabled() {
        return enabled;
    }

    /** An operator's choice; kept across restarts while the configured value stays the same. */
    public void enable(boolean value) {
        enabled = value;
        operatorChoiceOver = Optional.of(plan.config().enabled());
        LOG.info("Pipeline {} {} by an operator", id, value ? "enabled" : "disabled");
    }

    /**
     * Handles the events of one trigger delivery, each given as its trigger variables (path, value,
     * ... or topic, payload, ...). Never throws: failures are counted and kept as the last error.
     */
    public synchronized void handle(List<Map<String, Object>> deliveries) {
        handle(deliveries, Custody.NONE);
    }

    /**
     * As {@link #handle(List)}, with the custody of the MQTT messages the events came from (a
     * tag-change trigger's batch): each output submits its items with a part of it, and it is released
     * once every output's channel released its part (items buffered, delivered or refused). Events
     * the filter turns away, events that fail (a loss in the ledger) and a disabled pipeline keep
     * nothing: they release their part at once.
     */
    public synchronized void handle(List<Map<String, Object>> deliveries, Custody custody) {
        if (!enabled || deliveries.isEmpty()) {
            custody.release();
            return;
        }
        CustodyReceipt parts = custody == Custody.NONE ? null : CustodyReceipt.open(custody::release);
        try {
            handleAll(deliveries, parts);
        } finally {
            if (parts != null) {
                parts.published();
            }
        }
    }

    private void handleAll(List<Map<String, Object>> deliveries, CustodyReceipt parts) {
        Plan plan = this.plan;
        Instant now = clock.instant();
        lastEventAt = Optional.of(now);
        for (Map<String, Object> variables : deliveries) {
            events.incrementAndGet();
            String itemId = id + ":" + runId + ":" + sequence.incrementAndGet();
            Map<String, Object> all = new HashMap<>(variables);
            all.put("pipeline", id);
            all.put("now", now);
            all.put("item_id", itemId);
            handleOne(plan, new Scope(all), itemId);
        }
        for (PipelineOutput output : plan.outputs()) {
            try {
                if (output.submit(parts == null ? Custody.NONE : parts.share()) > 0) {
                    refusalsLogged.remove(output.connection());
                }
            } catch (OutputRefusedException e) {
                refused.addAndGet(e.items());
                refusal(output.connection(), e);
            } catch (RuntimeException e) {
                recordError("connection " + output.connection() + " failed: " + e);
                LOG.warn("Pipeline {}: output to {} failed", id, output.connection(), e);
            }
        }
    }

    private void handleOne(Plan plan, Scope scope, String itemId) {
        int prepared = 0;
        List<PipelineOutput> outputs = plan.outputs();
        try {
            if (!plan.steps().apply(scope)) {
                filtered.incrementAndGet();
                return;
            }
            for (PipelineOutput output : outputs) {
                output.prepare(scope, itemId);
                prepared++;
            }
            emitted.incrementAndGet();
        } catch (ExpressionException | RuntimeException e) {
            for (int i = 0; i < prepared; i++) {
                outputs.get(i).discardLast();
            }
            failed.incrementAndGet();
            String error = e instanceof ExpressionException ? e.getMessage() : "event failed: " + e;
            recordError(error);
            losses.lost(DataLoss.of(clock.instant(), "pipeline", id, LossReason.EXPRESSION_FAILED, 1, 0,
                    "an event produced no output: " + error));
        }
    }

    /**
     * A channel that refuses keeps refusing for a while (full, or not running because it failed to
     * start): the first refusal of each kind is logged, the rest only counted and kept as last error.
     */
    private void refusal(String connection, OutputRefusedException e) {
        String kind = e.getCause() == null ? OutputRefusedException.class.getName() : e.getCause().getClass().getName();
        if (kind.equals(refusalsLogged.put(connection, kind))) {
            lastError = Optional.of(e.getMessage());
            lastErrorAt = Optional.of(clock.instant());
            return;
        }
        recordError(e.getMessage());
    }

    private void recordError(String message) {
        Instant now = clock.instant();
        boolean repeated = lastError.map(message::equals).orElse(false);
        lastError = Optional.of(message);
        lastErrorAt = Optional.of(now);
        if (!repeated) {
            LOG.warn("Pipeline {}: {}", id, message);
        }
    }

    /** For a timer trigger: when the next run is due, kept across restarts. */
    public void nextRunAt(Instant when) {
        nextRunAt = Optional.of(when);
    }

    public Optional<Instant> nextRunAt() {
        return nextRunAt;
    }

    /** @param dropped what the trigger discarded because this pipeline fell behind */
    public PipelineStatus status(long dropped) {
        Plan plan = this.plan;
        return new PipelineStatus(id, enabled, plan.config().trigger().describe(), events.get(), filtered.get(),
                failed.get(), emitted.get(), refused.get(), dropped, lastError, lastErrorAt, lastEventAt,
                plan.outputs().stream().map(PipelineOutput::counts).toList());
    }

    /** The state to persist. */
    public PipelineState state() {
        return new PipelineState(enabled, operatorChoiceOver, events.get(), filtered.get(), failed.get(),
                emitted.get(), refused.get(), lastError, lastErrorAt, lastEventAt, nextRunAt);
    }

    private void restore(PipelineState state) {
        PipelineState reconciled = state.reconciledWith(plan.config().enabled());
        enabled = reconciled.enabled();
        operatorChoiceOver = reconciled.operatorChoiceOver();
        events.set(reconciled.events());
        filtered.set(reconciled.filtered());
        failed.set(reconciled.failed());
        emitted.set(reconciled.emitted());
        refused.set(reconciled.refused());
        lastError = reconciled.lastError();
        lastErrorAt = reconciled.lastErrorAt();
        lastEventAt = reconciled.lastEventAt();
        nextRunAt = reconciled.nextRunAt();
    }
}
