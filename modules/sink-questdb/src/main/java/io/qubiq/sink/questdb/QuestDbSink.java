package io.qubiq.sink.questdb;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.EncodedItems;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.core.sink.Sink;
import io.questdb.client.Sender;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@link QuestDbRow}s to QuestDB over ILP/HTTP with the official client. Each
 * {@link #write} appends the whole batch to one request and flushes it; it returns only after
 * QuestDB accepted the request, which QuestDB commits as a whole or not at all. Tables and columns
 * that do not exist yet are created by QuestDB on first write.
 *
 * <p>Failures are classified by {@link FailureClassifier}: unreachable server or HTTP 5xx is
 * transient, a row QuestDB cannot take (type or schema error) permanent and named by its line, a
 * timeout after sending unknown outcome, bad credentials or endpoint configuration. After any
 * failure the client is closed without sending what it still holds and a new one is made for the
 * next write: a client may be unusable after an error. The sink never retries and never sleeps.
 *
 * <p>{@link #writeEncoded} writes rows straight from the bytes of {@link QuestDbRowCodec} (version
 * 2; older versions are decoded first): the same calls on the client with the same values as
 * {@link #write} of the decoded rows, without making the rows. Each row's bytes are read and
 * checked in full before it is appended; a row that does not decode is refused by its index.
 *
 * <p>{@link java.time.Instant}s go out as nanoseconds unless the sink was made with {@link
 * TimestampPrecision#MICROS} (for tables whose timestamp columns are microseconds already).
 *
 * <p>Threading: {@link #write} and {@link #close} are called by one thread at a time (the channel's
 * forwarder, or a producer under the channel's latch); {@link #probe} may run concurrently on the
 * monitor's thread and uses its own HTTP connection.
 */
public final class QuestDbSink implements Sink<QuestDbRow>, EncodedWrites {

    private static final Logger log = LoggerFactory.getLogger(QuestDbSink.class);

    private final String id;
    private final String connectString;
    private final boolean idempotent;
    private final FailureClassifier classifier;
    private final PingProbe probe;
    private final RowAppender appender;
    private Sender sender;
    private boolean closed;

    /**
     * @throws ConfigurationException when the address is not {@code host:port} or the settings are
     *     contradictory (the same checks the configuration binder reports)
     */
    public QuestDbSink(String id, QuestDbSinkConfig config, Clock clock) throws ConfigurationException {
        this(id, config, clock, TimestampPrecision.NANOS);
    }

    /**
     * @param precision the unit of timestamps on the wire: {@link TimestampPrecision#MICROS} only
     *     for tables whose timestamp columns already exist as microseconds
     * @throws ConfigurationException as {@link #QuestDbSink(String, QuestDbSinkConfig, Clock)}
     */
    public QuestDbSink(String id, QuestDbSinkConfig config, Clock clock, TimestampPrecision precision)
            throws ConfigurationException {
        this.appender = new RowAppender(Objects.requireNonNull(precision, "precision"));
        this.id = Objects.requireNonNull(id, "id");
        List<QuestDbSinkConfig.Violation> violations = config.violations();
        if (!violations.isEmpty()) {
            QuestDbSinkConfig.Violation first = violations.get(0);
            throw new ConfigurationException(first.key(), first.message());
        }
        HostPort address = HostPort.parse(config.address()).orElseThrow();
        this.connectString = SenderSettings.connectString(config, address);
        this.idempotent = config.idempotent();
        this.classifier = new FailureClassifier(config);
        this.probe = new PingProbe(config, address, clock);
    }

    public QuestDbSink(String id, QuestDbSinkConfig config) throws ConfigurationException {
        this(id, config, Clock.systemUTC());
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void write(List<QuestDbRow> batch) throws GatewayException {
        if (closed) {
            throw new IllegalStateException("QuestDB sink " + id + " is closed");
        }
        if (batch.isEmpty()) {
            return;
        }
        Sender s = sender();
        for (int i = 0; i < batch.size(); i++) {
            try {
                appender.append(s, batch.get(i));
            } catch (RuntimeException e) {
                discardSender();
                throw classifier.appendFailed(e, i);
            }
        }
        flush(s, batch.size());
    }

    /**
     * Writes rows given as {@link QuestDbRowCodec} bytes; fails as {@link #write} of the decoded rows
     * would. Bytes that do not decode fail the batch with {@link EncodedWrites#undecodable} before
     * anything of it is sent.
     */
    @Override
    public void writeEncoded(EncodedItems items) throws GatewayException {
        if (closed) {
            throw new IllegalStateException("QuestDB sink " + id + " is closed");
        }
        if (items.isEmpty()) {
            return;
        }
        Sender s = sender();
        for (int i = 0; i < items.size(); i++) {
            try {
                appender.appendEncoded(s, items.array(i), items.offset(i));
            } catch (PermanentException e) {
                discardSender();
                throw EncodedWrites.undecodable(i, e);
            } catch (RuntimeException e) {
                discardSender();
                throw classifier.appendFailed(e, i);
            }
        }
        flush(s, items.size());
    }

    private void flush(Sender s, int rows) throws GatewayException {
        try {
            s.flush();
        } catch (RuntimeException e) {
            discardSender();
            GatewayException failure = classifier.flushFailed(e, rows);
            log.debug("QuestDB write of {} rows for {} failed ({}): {}", rows, id, failure.failureClass(),
                    e.getMessage());
            throw failure;
        }
    }

    @Override
    public ConnectionStatus probe() {
        return probe.probe();
    }

    @Override
    public boolean idempotent() {
        return idempotent;
    }

    @Override
    public void close() {
        closed = true;
        discardSender();
    }

    private Sender sender() throws ConfigurationException {
        if (sender == null) {
            try {
                sender = Sender.fromConfig(connectString);
            } catch (RuntimeException e) {
                throw new ConfigurationException("address", "the QuestDB client rejects this configuration: "
                        + e.getMessage(), e);
            }
        }
        return sender;
    }

    /** Drops what the client still holds (so closing sends nothing) and closes it. */
    private void discardSender() {
        Sender s = sender;
        sender = null;
        if (s == null) {
            return;
        }
        try {
            s.reset();
        } catch (RuntimeException e) {
            log.debug("Resetting the QuestDB client of {} failed: {}", id, e.toString());
        }
        try {
            s.close();
        } catch (RuntimeException e) {
            log.debug("Closing the QuestDB client of {} failed: {}", id, e.toString());
        }
    }
}
