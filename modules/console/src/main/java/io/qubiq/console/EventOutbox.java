package io.qubiq.console;

import io.javalin.http.sse.SseClient;
import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.ServletChannel;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One live-event client's outbox: the events waiting to go to it and the thread that sends them.
 *
 * <p>The stream's tick thread {@link #offer}s events and never waits: a send that blocks (a client that
 * does not read, a slow link) blocks only this client's sender thread, never the tick or another client.
 * The queue holds at most {@value #MAX_EVENTS} events and {@value #MAX_CHARS} characters of event data;
 * an empty queue takes any one event, so a large first snapshot always fits. A client whose queue is full
 * has fallen behind: the outbox discards what it holds and aborts the connection. The browser's
 * {@code EventSource} reconnects and, like any new subscriber, starts with a fresh snapshot.
 *
 * <p>Threading: {@link #offer}, {@link #finish} and {@link #close} are called from the stream's tick thread
 * (close also from Jetty's when the client goes away); the sender thread {@code console-events-<user>} is
 * the only one that writes to the connection; after {@value #HEARTBEAT_MS} ms without an event it writes a
 * comment line, so that a client that went away is noticed even on a quiet stream. It ends after
 * {@link #finish} has sent what was queued, or at once on {@link #close}, on falling behind, or when a
 * send fails.
 */
final class EventOutbox {

    static final int MAX_EVENTS = 256;
    static final long MAX_CHARS = 4L << 20;
    /** A client sent nothing for this long gets a comment line, so a client that went away is noticed. */
    static final long HEARTBEAT_MS = 15_000;

    private static final Logger log = LoggerFactory.getLogger(EventOutbox.class);
    private static final Event END = new Event("", "");

    private record Event(String name, String data) {
    }

    private final SseClient client;
    private final String who;
    private final Runnable abort;
    private final Consumer<EventOutbox> onEnd;
    private final BlockingQueue<Event> queue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedChars = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread sender;

    /**
     * @param who   the user and remote address, for the log
     * @param onEnd called once when the outbox ends, whatever ended it (on the thread that ended it)
     */
    EventOutbox(SseClient client, String user, String who, Consumer<EventOutbox> onEnd) {
        this.client = client;
        this.who = who;
        this.abort = abortOf(client);
        this.onEnd = onEnd;
        this.sender = new Thread(this::sendAll, "console-events-" + user);
        this.sender.setDaemon(true);
    }

    void start() {
        sender.start();
    }

    /**
     * Queues an event for this client; false when the outbox has ended, or ends now because the client
     * fell behind (the event is not queued and the connection is aborted).
     */
    boolean offer(String name, String data) {
        if (closed.get()) {
            return false;
        }
        int events = queue.size();
        long chars = queuedChars.get();
        if (events > 0 && (events >= MAX_EVENTS || chars + data.length() > MAX_CHARS)) {
            log.warn("Live event client {} fell behind ({} events, {} characters waiting); disconnected, its"
                    + " browser reconnects with a fresh snapshot", who, events, chars);
            if (end()) {
                abort.run();
            }
            return false;
        }
        queuedChars.addAndGet(data.length());
        queue.add(new Event(name, data));
        return true;
    }

    /** Sends what is queued, then {@code event}, then closes the connection (the session ended). */
    void finish(String name, String data) {
        if (!closed.get()) {
            queue.add(new Event(name, data));
            queue.add(END);
        }
    }

    /** Ends the outbox now, discarding what is queued, and closes the connection. */
    void close() {
        if (end()) {
            client.close();
        }
    }

    private boolean end() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        queue.clear();
        sender.interrupt();
        onEnd.accept(this);
        return true;
    }

    private void sendAll() {
        try {
            while (!closed.get()) {
                Event event = queue.poll(HEARTBEAT_MS, TimeUnit.MILLISECONDS);
                if (event == END) {
                    break;
                }
                if (event == null) {
                    client.sendComment("keep-alive");
                } else {
                    queuedChars.addAndGet(-event.data().length());
                    client.sendEvent(event.name(), event.data());
                }
                if (client.terminated()) {
                    break; // the write failed: the client went away
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closed: nothing more to send
        } catch (RuntimeException e) {
            log.debug("Live event client {}: sending failed, its stream ends: {}", who, e.toString());
        } finally {
            close();
        }
    }

    /**
     * How to drop the connection while a send may be blocked on it: abort the request's channel in Jetty,
     * which fails the pending write; closing the client alone would wait for that write to finish.
     */
    private static Runnable abortOf(SseClient client) {
        ServletContextRequest request = ServletContextRequest.getServletContextRequest(client.ctx().req());
        if (request == null) {
            return client::close;
        }
        ServletChannel channel = request.getServletChannel();
        return () -> {
            if (!client.terminated()) {
                channel.abort(new IOException("live event client fell behind"));
            }
            client.close();
        };
    }
}
