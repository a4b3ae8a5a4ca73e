package io.qubiq.app.apply;

import io.qubiq.app.lifecycle.Lifecycle;
import io.qubiq.app.metrics.GatewayMetrics;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.RunningOutbound;
import io.qubiq.app.storeforward.OrphanedChannels;
import io.qubiq.core.lifecycle.Component;
import java.util.Optional;

/**
 * What the running gateway does around an outbound connection added or retired live
 * ({@link RunningOutbound}): a connection that joins gets its {@code sf_*} metrics and a place in the
 * lifecycle just before {@code stopsAfter} (the pipelines, which write to it, so a shutdown stops them
 * first), and its directory is no longer listed as an orphan (the new channel delivers what it holds); one
 * that leaves loses both, and its directory is listed as an orphan when it still holds data. The audit
 * journal's forward target cannot leave while the gateway runs (its forwarder was built at start).
 *
 * <p>Threading: called under {@link RunningOutbound}'s lock.
 */
public final class LiveOutboundWiring implements RunningOutbound.Wiring {

    private final Lifecycle lifecycle;
    private final Component stopsAfter;
    private final GatewayMetrics metrics;
    private final OrphanedChannels orphans;
    private final Optional<String> auditForwardTarget;

    public LiveOutboundWiring(Lifecycle lifecycle, Component stopsAfter, GatewayMetrics metrics,
                              OrphanedChannels orphans, Optional<String> auditForwardTarget) {
        this.lifecycle = lifecycle;
        this.stopsAfter = stopsAfter;
        this.metrics = metrics;
        this.orphans = orphans;
        this.auditForwardTarget = auditForwardTarget;
    }

    @Override
    public void started(OutboundConnection<?> connection) {
        synchronized (orphans) {
            orphans.remove(connection.id());
        }
        metrics.bindChannel(connection.id(), connection.channel()::status);
        lifecycle.adopt(connection.channel(), stopsAfter);
    }

    @Override
    public void retired(OutboundConnection<?> connection) {
        lifecycle.retire(connection.channel());
        metrics.unbindChannel(connection.id());
        synchronized (orphans) {
            orphans.look(connection.id());
        }
    }

    @Override
    public Optional<String> heldBy(String id) {
        return auditForwardTarget.filter(id::equals).map(target -> "the audit journal (audit.forward_to)");
    }
}
