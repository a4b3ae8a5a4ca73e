package io.qubiq.app.runtime;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGHUP reads the configuration file again, as {@code POST /api/v1/config/reload} does: the usual way to
 * tell a service that its file was edited by hand. The reload runs on a thread of its own
 * ({@code config-reload-signal}), never on the JVM's signal thread. SIGHUPs that arrive while a reload
 * runs are answered by one more reload after it (so no edit is missed), not one each.
 *
 * <p>Threading: {@link #install} once; reloads run one at a time on that thread.
 */
public final class SignalReload {

    private static final Logger log = LoggerFactory.getLogger(SignalReload.class);

    private final Runnable reload;
    /** One thread, at most one reload waiting behind the one that runs; further requests are that one. */
    private final ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1), runnable -> {
                Thread thread = new Thread(runnable, "config-reload-signal");
                thread.setDaemon(true);
                return thread;
            }, new ThreadPoolExecutor.DiscardPolicy());

    /** @param reload reads the file again and logs the outcome; what it throws is logged here */
    public SignalReload(Runnable reload) {
        this.reload = reload;
        executor.allowCoreThreadTimeOut(true);
    }

    /** Installs the SIGHUP handler; on a platform without SIGHUP, logs that and does nothing. */
    public void install() {
        try {
            Signal.handle(new Signal("HUP"), signal -> requested());
        } catch (IllegalArgumentException e) {
            log.info("SIGHUP is not available here ({}); reload the configuration with POST /api/v1/config/reload",
                    e.getMessage());
        }
    }

    /** What a SIGHUP does; package-visible for tests. */
    void requested() {
        executor.execute(() -> {
            log.info("SIGHUP received: reading the configuration file again");
            try {
                reload.run();
            } catch (RuntimeException e) {
                log.error("Reloading the configuration on SIGHUP failed: {}", e.toString(), e);
            }
        });
    }
}
