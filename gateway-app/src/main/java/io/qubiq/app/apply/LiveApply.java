package io.qubiq.app.apply;

import io.qubiq.app.config.ConfigApplier;
import io.qubiq.console.ConfigChanges;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.app.config.DeviceConfig;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.devices.DeviceKinds;
import io.qubiq.app.config.OutboundConfig;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundKinds;
import io.qubiq.app.outbound.RunningOutbound;
import io.qubiq.historian.Historian;
import io.qubiq.historian.HistorianConfig;
import io.qubiq.pipeline.Pipelines;
import java.time.Clock;
import io.qubiq.core.connector.DeviceKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a written configuration to the running gateway, component by component
 * ({@link ConfigApplier}). What it changes live today:
 * <ul>
 *   <li>{@code device:<id>}: a device connection added, changed or removed. The changed connection's
 *       connector is closed and a new one built by its kind and started; the other connections keep
 *       collecting, untouched. Its tags are owned by the new connector from then on (writes go there),
 *       it settles anew on /health within its own readiness grace, and a connection that is new gets its
 *       metrics.</li>
 *   <li>{@code outbound:<id>} added: built by its kind and started ({@link RunningOutbound#add}); when its
 *       directory holds a backlog (a connection of that name removed earlier), it delivers it. Additions are
 *       applied before every other component, so a pipeline changed in the same revision finds its new
 *       output's connection.</li>
 *   <li>{@code outbound:<id>} removed: applied after every other component (the pipelines that wrote to it
 *       have let go of it by then). Its channel stops and its probe, sink and metrics go
 *       ({@link RunningOutbound#retire}). When it holds buffered or quarantined items the operator has chosen
 *       ({@link #backlogsAffected}, {@code onRemove}): {@code drain} (it runs on until its buffer and quarantine
 *       are empty, then goes), {@code keep_orphan} (it goes now; its directory is listed as an orphan, to
 *       attach or discard) or {@code discard} (its buffered items dropped as {@code connection_removed}, its
 *       quarantine dropped as operator drops, then it goes). A rename is a removal and an addition. A
 *       connection the audit journal forwards to waits for a restart.</li>
 *   <li>{@code outbound:<id>}: an outbound connection whose section changed but kept its kind. Changed
 *       storage settings (size limit, segment size, water marks, overflow policy, durability, quarantine limit) reopen
 *       the channel's buffer and quarantine with them; a new sink replaces the old one together with the
 *       new delivery settings (batch, linger, backoff, attempt cap, fast path). The backlog, the
 *       quarantine and the counters stay, and delivery resumes from the buffer's head
 *       ({@link OutboundConnection#reconfigure}). Producers are never turned away meanwhile.
 *       A {@code max_bytes} lowered below the channel's backlog is {@linkplain #backlogsAffected reported}
 *       first, so the operator chooses: {@code keep} (the backlog stays and drains; new items meet the limit
 *       as the overflow policy says) or {@code drop_oldest} (once the new limit is in force, the oldest
 *       items beyond it are dropped, counted in the loss ledger as {@code max_bytes_shrunk} with the
 *       user).</li>
 *   <li>{@code pipeline:<id>}: a pipeline added, changed or removed ({@link Pipelines#apply}). A changed
 *       pipeline keeps its counters and, unless its trigger changed, its trigger and what that has
 *       queued; the other pipelines run on untouched. A pipeline added gets its metrics.</li>
 *   <li>{@code historian}: its storage rules ({@code default_rule}, {@code rules}), taken while values flow
 *       ({@link Historian#applyRules}); every other historian key waits for a restart.</li>
 * </ul>
 * <p>Everything else is answered as waiting for a restart of the gateway: a pipeline when the gateway started
 * with none, or whose new configuration cannot run (an output to an outbound connection that could not be
 * started, an MQTT trigger on a connection that triggered no pipeline at start; logged, the old one runs on),
 * an outbound connection given another kind, removed while the audit journal forwards to it, or whose section
 * cannot be built (logged), and a device connection
 * whose messages trigger a pipeline (the pipeline's trigger holds that connector) or whose new
 * connector cannot be built (logged; the old one keeps running). Nothing is ever reported applied
 * that is not running.
 *
 * <p>Threading: one {@link #apply} at a time (the configuration API serialises writes).
 */
public final class LiveApply implements ConfigApplier {

    private static final Logger log = LoggerFactory.getLogger(LiveApply.class);
    private static final String DEVICE = "device:";
    private static final String OUTBOUND = "outbound:";
    private static final String PIPELINE = "pipeline:";
    private static final String HISTORIAN = "historian";

    private final DeviceConnections devices;
    private final DeviceKind.Context context;
    private final Consumer<String> connectionAdded;
    private final RunningOutbound outbound;
    private final Optional<Pipelines> pipelines;
    private final Consumer<String> pipelineAdded;
    private final Optional<Historian> historian;
    private final Clock clock;

    /**
     * @param context         what device kinds build connectors with (the running gateway's)
     * @param connectionAdded told the id of a device connection added live (binds its metrics)
     * @param outbound        the running outbound connections, which this adds to and retires from
     * @param pipelines       the running pipelines; empty when the gateway started with none
     * @param pipelineAdded   told the id of a pipeline added live (binds its metrics)
     * @param historian       the running historian; empty when the gateway has none
     */
    public LiveApply(DeviceConnections devices, DeviceKind.Context context, Consumer<String> connectionAdded,
                     RunningOutbound outbound, Optional<Pipelines> pipelines,
                     Consumer<String> pipelineAdded, Optional<Historian> historian, Clock clock) {
        this.devices = devices;
        this.context = context;
        this.connectionAdded = connectionAdded;
        this.outbound = outbound;
        this.pipelines = pipelines;
        this.pipelineAdded = pipelineAdded;
        this.historian = historian;
        this.clock = clock;
    }

    @Override
    public Applied apply(LoadedConfig before, LoadedConfig after, Set<String> components) {
        return apply(before, after, components, ConfigChanges.Choices.none(), "system");
    }

    @Override
    public List<ConfigChanges.Backlog> backlogsAffected(LoadedConfig before, LoadedConfig after,
                                                        Set<String> components) {
        List<ConfigChanges.Backlog> affected = new ArrayList<>();
        for (String component : components) {
            if (!component.startsWith(OUTBOUND)) {
                continue;
            }
            String id = component.substring(OUTBOUND.length());
            OutboundConnection<?> connection = outbound.get(id).orElse(null);
            OutboundConfig next = after.config().outbound().get(id);
            if (connection == null) {
                continue;
            }
            ChannelStatus status = connection.channel().status();
            if (next == null) {
                if (status.bufferedItems() > 0 || status.quarantineItems() > 0) {
                    affected.add(new ConfigChanges.Backlog(id, status.bufferedItems(), status.bufferedBytes(),
                            status.quarantineItems(), 0));
                }
                continue;
            }
            long limit = next.storeAndForward().maxBytes();
            if (limit < status.bufferedBytes() && limit < connection.channel().settings().maxBytes()) {
                affected.add(new ConfigChanges.Backlog(id, status.bufferedItems(), status.bufferedBytes(),
                        status.quarantineItems(), limit));
            }
        }
        return affected;
    }

    @Override
    public Applied apply(LoadedConfig before, LoadedConfig after, Set<String> components,
                         ConfigChanges.Choices choices, String user) {
        boolean dropOldest = choices.onShrink().filter("drop_oldest"::equals).isPresent();
        List<String> applied = new ArrayList<>();
        List<String> needRestart = new ArrayList<>();
        List<String> ordered = new ArrayList<>(components.stream().filter(c -> addsOutbound(c, after)).toList());
        components.stream().filter(c -> !addsOutbound(c, after) && !removesOutbound(c, after)).forEach(ordered::add);
        components.stream().filter(c -> removesOutbound(c, after)).forEach(ordered::add);
        for (String component : ordered) {
            boolean live = component.startsWith(DEVICE)
                    ? applyDevice(component.substring(DEVICE.length()), before.config(), after.config())
                    : removesOutbound(component, after)
                    ? removeOutbound(component.substring(OUTBOUND.length()), choices.onRemove().orElse("keep_orphan"),
                    user)
                    : component.startsWith(OUTBOUND)
                    ? applyOutbound(component.substring(OUTBOUND.length()), after.config(), dropOldest, user)
                    : component.startsWith(PIPELINE)
                    ? applyPipeline(component.substring(PIPELINE.length()), before.config(), after.config())
                    : component.equals(HISTORIAN) && applyHistorian(before.config(), after.config());
            (live ? applied : needRestart).add(component);
        }
        if (!needRestart.isEmpty()) {
            log.info("Configuration changes that wait for a restart of the gateway: {}", needRestart);
        }
        return new Applied(applied, needRestart);
    }

    private static boolean addsOutbound(String component, LoadedConfig after) {
        return component.startsWith(OUTBOUND) && after.config().outbound().containsKey(component.substring(OUTBOUND.length()));
    }

    private static boolean removesOutbound(String component, LoadedConfig after) {
        return component.startsWith(OUTBOUND) && !addsOutbound(component, after);
    }

    private boolean applyDevice(String id, GatewayConfig before, GatewayConfig after) {
        if (triggersAPipeline(id, before) || triggersAPipeline(id, after)) {
            log.info("Device connection {} triggers pipelines with its messages: its change waits for a restart", id);
            return false;
        }
        DeviceConfig next = after.devices().get(id);
        if (next == null || !next.enabled()) {
            devices.replace(id, Optional.empty());
            return true;
        }
        DeviceConnections.Entry entry;
        try {
            entry = DeviceKinds.entries(Map.of(id, next), context).get(id);
        } catch (RuntimeException e) {
            log.error("Device connection {}: its new configuration could not be built ({}); the connection keeps"
                    + " running as it was until the gateway restarts", id, e.toString());
            return false;
        }
        boolean added = !devices.ids().contains(id);
        devices.replace(id, Optional.of(entry));
        if (added) {
            connectionAdded.accept(id);
        }
        log.info("Device connection {} {} live", id, added ? "added" : "changed");
        return true;
    }

    private boolean applyOutbound(String id, GatewayConfig after, boolean dropOldest, String user) {
        OutboundConfig next = after.outbound().get(id);
        Optional<OutboundConnection<?>> running = outbound.get(id);
        if (running.isEmpty()) {
            try {
                outbound.add(id, next);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (Exception e) {
                log.error("Outbound connection {} could not be added live ({}); it waits for a restart of the gateway",
                        id, e.getMessage() != null ? e.getMessage() : e.toString());
                return false;
            }
        }
        OutboundConnection<?> connection = running.get();
        if (outbound.keep(id)) {
            log.info("Outbound connection {} is configured again: it no longer waits to drain and runs on", id);
        }
        if (OutboundKinds.of(next) != connection.kind()) {
            log.info("Outbound connection {} changes its kind: that waits for a restart", id);
            return false;
        }
        try {
            connection.reconfigure(next, clock);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.error("Outbound connection {}: its new configuration could not be applied ({}); it keeps running as"
                    + " it was until the gateway restarts", id, e.toString());
            return false;
        }
        long limit = next.storeAndForward().maxBytes();
        if (dropOldest && connection.channel().status().bufferedBytes() > limit) {
            try {
                long dropped = connection.channel().dropOldestBeyond(limit, user);
                log.warn("Outbound connection {} changed live; {} oldest items dropped to fit max_bytes {}, as {}"
                        + " chose", id, dropped, limit, user);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                log.error("Outbound connection {}: the new settings are in force but its oldest items could not be"
                        + " dropped ({}); the backlog is kept and drains", id, e.toString());
            }
            return true;
        }
        log.info("Outbound connection {} changed live; its backlog and quarantine are kept", id);
        return true;
    }

    /**
     * Outbound connection {@code id}, gone from the configuration, as the operator chose ({@code keep_orphan}
     * when it held nothing to ask about).
     */
    private boolean removeOutbound(String id, String choice, String user) {
        if (outbound.get(id).isEmpty()) {
            return true; // not running (it never started, or a restart is what removes it): nothing to stop
        }
        Optional<String> holder = outbound.heldBy(id);
        if (holder.isPresent()) {
            log.info("Outbound connection {} removed from the configuration: {} writes to it, so it runs on until the"
                    + " gateway restarts", id, holder.get());
            return false;
        }
        try {
            switch (choice) {
                case "drain" -> outbound.retireWhenDrained(id);
                case "discard" -> {
                    discardRemoved(id, user);
                    outbound.retire(id);
                }
                default -> outbound.retire(id);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.error("Outbound connection {} removed from the configuration could not be stopped cleanly ({}); what"
                    + " it buffered stays in its directory", id, e.toString());
            return true;
        }
    }

    private boolean applyPipeline(String id, GatewayConfig before, GatewayConfig after) {
        if (pipelines.isEmpty()) {
            log.info("Pipeline {}: the gateway started without pipelines, so it waits for a restart", id);
            return false;
        }
        boolean added = !before.pipelines().containsKey(id);
        try {
            pipelines.get().apply(id, Optional.ofNullable(after.pipelines().get(id)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.error("Pipeline {}: its new configuration cannot run live ({}); {} until the gateway restarts", id,
                    e.getMessage() != null ? e.getMessage() : e.toString(),
                    added ? "it does not run" : "it keeps running as it was");
            return false;
        }
        if (added) {
            pipelineAdded.accept(id);
        }
        return true;
    }

    private boolean applyHistorian(GatewayConfig before, GatewayConfig after) {
        if (historian.isEmpty() || before.historian().isEmpty() || after.historian().isEmpty()) {
            log.info("The historian was added or removed: that waits for a restart");
            return false;
        }
        HistorianConfig was = before.historian().get();
        HistorianConfig next = after.historian().get();
        if (!next.withRules(was.defaultRule(), was.rules()).equals(was)) {
            log.info("The historian's settings other than its storage rules changed: that waits for a restart");
            return false;
        }
        historian.get().applyRules(next);
        log.info("The historian's storage rules changed live: {} rule(s)", next.rules().size());
        return true;
    }

    /**
     * An outbound connection removed with {@code onRemove: discard}: its buffered items are dropped now
     * ({@code connection_removed} in the loss ledger) and its quarantine emptied (each an operator's drop,
     * audited), before it is retired.
     */
    private void discardRemoved(String id, String user) {
        OutboundConnection<?> connection = outbound.get(id).orElse(null);
        if (connection == null) {
            return;
        }
        try {
            long dropped = connection.channel().discardBacklog(user, "outbound connection '" + id + "' removed from"
                    + " the configuration; " + user + " chose to discard its backlog");
            int quarantined = connection.channel().quarantine().dropAll(user, "configuration").done().size();
            log.warn("Outbound connection {} removed: {} buffered and {} quarantined items discarded as {} chose", id,
                    dropped, quarantined, user);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.error("Outbound connection {} removed: its data could not be discarded ({}); it stays and is listed as"
                    + " an orphan", id, e.toString());
        }
    }

    private static boolean triggersAPipeline(String id, GatewayConfig config) {
        return config.pipelines().values().stream()
                .anyMatch(p -> p.trigger().mqtt().map(t -> t.connection().equals(id)).orElse(false));
    }
}
