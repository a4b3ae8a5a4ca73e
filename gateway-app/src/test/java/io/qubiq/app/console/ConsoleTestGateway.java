package io.qubiq.app.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import io.qubiq.testkit.postgres.PostgresServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * A whole gateway for the browser tests, with real servers around it: an OPC UA device (the test
 * server) whose {@code plant/pressure} and {@code plant/level} tags feed two pipelines into
 * PostgreSQL tables with CHECK constraints, through the outbound connections {@code db} and
 * {@code archive}; the embedded QuestDB behind the historian; the console with an administrator
 * created from the configured password and, made by it through the API, an engineer and a viewer.
 *
 * <p>Threading: started and closed by the test class; the helpers may be called from any thread.
 */
final class ConsoleTestGateway implements AutoCloseable {

    static final String ADMIN = TestOperators.ADMIN;
    static final String ADMIN_PASSWORD = TestOperators.ADMIN_PASSWORD;
    static final String ENGINEER = "erin";
    static final String VIEWER = "victor";
    static final String PASSWORD = "correct-horse-battery";
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * An expression that makes each db item about 38 KB, so that a short outage fills the channel's
     * smallest allowed buffer (1 MiB) past its high-water mark and the page shows the pressure alarm
     * (the device's subscription passes on a few changes a second). Literals joined, as one literal
     * this long overflows the stack of the expression scanner's regular expression.
     */
    private static final String NOTE = String.join(" + ",
            java.util.Collections.nCopies(40, "'" + "a reading with a long note to fill the buffer. ".repeat(20) + "'"));

    final PostgresServer postgres;
    final TestOpcUaServer device;
    private final DataDirectory data;
    private final Gateway gateway;
    final String base;
    final ConsoleClient admin;

    private ConsoleTestGateway(PostgresServer postgres, TestOpcUaServer device, DataDirectory data, Gateway gateway) {
        this.postgres = postgres;
        this.device = device;
        this.data = data;
        this.gateway = gateway;
        this.base = "http://127.0.0.1:" + gateway.console().port();
        this.admin = ConsoleClient.signedIn(base, ADMIN, ADMIN_PASSWORD);
    }

    static ConsoleTestGateway start(Path dir) throws Exception {
        return start(dir, false);
    }

    /**
     * As {@link #start(Path)}, with the configuration read from a file ({@code dir/gateway.yaml}), so
     * the configuration API can change it (changes are written to that file and applied live).
     */
    static ConsoleTestGateway startFromFile(Path dir) throws Exception {
        return start(dir, true);
    }

    private static ConsoleTestGateway start(Path dir, boolean fromFile) throws Exception {
        PostgresServer postgres = PostgresServer.start(dir.resolve("postgres"));
        postgres.execute(
                "CREATE TABLE readings (id bigserial PRIMARY KEY, value double precision CONSTRAINT readings_value_check"
                        + " CHECK (value >= 0), note text)",
                "CREATE TABLE levels (id bigserial PRIMARY KEY, value bigint CONSTRAINT levels_value_check"
                        + " CHECK (value <> 13))");
        TestOpcUaServer device = TestOpcUaServer.onFreePort().start();
        String yaml = """
                gateway: {name: console-demo}
                http:
                  port: 0
                logging:
                  file_enabled: false
                %s
                devices:
                  plc1:
                    opcua:
                      endpoint_url: %s
                      tags:
                        - {path: plant/pressure, node_id: "%s", sampling_interval_ms: 20}
                        - {path: plant/level, node_id: "%s", sampling_interval_ms: 20}
                        - {path: plant/setpoint, node_id: "%s", writable: true}
                questdb:
                  embedded: true
                  embedded_http_port: 0
                  embedded_pg_port: 0
                  embedded_max_heap_mb: 256
                historian:
                  linger_ms: 50
                outbound:
                  db:
                    sql: {jdbc_url: "%s", username: postgres, connection_timeout_ms: 1000}
                    store_and_forward: {max_bytes: 1048576, segment_bytes: 262144, backoff_max_ms: 1000}
                  archive:
                    sql: {jdbc_url: "%s", username: postgres, connection_timeout_ms: 1000}
                pipelines:
                  pressures:
                    trigger: {tags: ["plant/pressure"]}
                    outputs:
                      - connection: db
                        sql:
                          statement: "INSERT INTO readings (value, note) VALUES (:value, :note)"
                          parameters: {value: "value", note: "%s"}
                  levels:
                    trigger: {tags: ["plant/level"]}
                    outputs:
                      - connection: archive
                        sql:
                          statement: "INSERT INTO levels (value) VALUES (:value)"
                          parameters: {value: "value"}
                """.formatted(TestOperators.AUTH_YAML.strip(), device.endpointUrl(), device.nodeId(TestVariable.PRESSURE),
                device.nodeId(TestVariable.INT32), device.nodeId(TestVariable.SETPOINT),
                postgres.jdbcUrl(), postgres.jdbcUrl(), NOTE);
        DataDirectory data = DataDirectory.open(dir.resolve("data"));
        Gateway gateway = fromFile
                ? new Gateway(ConfigSource.loadFile(Files.writeString(dir.resolve("gateway.yaml"), yaml), Map.of(), data.root()), data,
                        Clock.systemUTC())
                : new Gateway(ConfigLoader.parse("console-test.yaml", yaml, GatewayConfig.class, Map.of()), data,
                        Clock.systemUTC());
        gateway.lifecycle().startAll();
        ConsoleTestGateway started = new ConsoleTestGateway(postgres, device, data, gateway);
        started.createUser(ENGINEER, "engineer");
        started.createUser(VIEWER, "viewer");
        return started;
    }

    private void createUser(String name, String role) {
        HttpResponse<String> answer = admin.post("/api/v1/users", """
                {"name": "%s", "password": "%s", "roles": ["%s"]}""".formatted(name, PASSWORD, role));
        if (answer.statusCode() != 201 && answer.statusCode() != 200) {
            throw new AssertionError("creating " + name + ": " + answer.statusCode() + " " + answer.body());
        }
    }

    /** The gateway itself, for tests that watch its tag bus. */
    Gateway gateway() {
        return gateway;
    }

    /** A GET as the administrator that must answer 200, parsed. */
    JsonNode read(String path) {
        return json(admin.get(path), path);
    }

    static JsonNode json(HttpResponse<String> answer, String what) {
        if (answer.statusCode() / 100 != 2) {
            throw new AssertionError(what + " answered " + answer.statusCode() + ": " + answer.body());
        }
        try {
            return JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new UncheckedIOException(what + " did not answer JSON: " + answer.body(), e);
        }
    }

    /** Whether a channel's buffer is above its high-water mark, as the API reports it. */
    boolean pressureAlarm(String connection) {
        return read("/api/v1/store-forward/" + connection).get("pressureAlarm").asBoolean();
    }

    /** How many items a channel's quarantine holds, as the API reports it. */
    long quarantined(String connection) {
        return read("/api/v1/store-forward/" + connection + "/quarantine").get("total").asLong();
    }

    @Override
    public void close() throws Exception {
        try {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        } finally {
            data.close();
            device.close();
            postgres.close();
        }
    }
}
