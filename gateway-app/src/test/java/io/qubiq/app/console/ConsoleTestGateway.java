package io.qubiq.app.console;

import io.qubiq.app.Gateway;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import io.qubiq.testkit.postgres.PostgresServer;
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

    static final String ADMIN = "admin";
    static final String ENGINEER = "erin";
    static final String VIEWER = "victor";
    static final String PASSWORD = "correct-horse-battery";

    final PostgresServer postgres;
    final TestOpcUaServer device;
    private final DataDirectory data;
    private final Gateway gateway;
    final String base;
    final ConsoleApiClient admin;

    private ConsoleTestGateway(PostgresServer postgres, TestOpcUaServer device, DataDirectory data, Gateway gateway) {
        this.postgres = postgres;
        this.device = device;
        this.data = data;
        this.gateway = gateway;
        this.base = "http://127.0.0.1:" + gateway.console().port();
        this.admin = ConsoleApiClient.signIn(base, ADMIN, PASSWORD);
    }

    static ConsoleTestGateway start(Path dir) throws Exception {
        PostgresServer postgres = PostgresServer.start(dir.resolve("postgres"));
        postgres.execute(
                "CREATE TABLE readings (id bigserial PRIMARY KEY, value double precision CONSTRAINT readings_value_check"
                        + " CHECK (value >= 0))",
                "CREATE TABLE levels (id bigserial PRIMARY KEY, value bigint CONSTRAINT levels_value_check"
                        + " CHECK (value <> 13))");
        TestOpcUaServer device = TestOpcUaServer.onFreePort().start();
        String yaml = """
                gateway: {name: console-demo}
                http:
                  port: 0
                logging:
                  file_enabled: false
                auth:
                  admin_password: "%s"
                  password_hash_memory_kib: 4096
                  password_hash_iterations: 1
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
                    store_and_forward: {backoff_max_ms: 1000}
                  archive:
                    sql: {jdbc_url: "%s", username: postgres, connection_timeout_ms: 1000}
                pipelines:
                  pressures:
                    trigger: {tags: ["plant/pressure"]}
                    outputs:
                      - connection: db
                        sql:
                          statement: "INSERT INTO readings (value) VALUES (:value)"
                          parameters: {value: "value"}
                  levels:
                    trigger: {tags: ["plant/level"]}
                    outputs:
                      - connection: archive
                        sql:
                          statement: "INSERT INTO levels (value) VALUES (:value)"
                          parameters: {value: "value"}
                """.formatted(PASSWORD, device.endpointUrl(), device.nodeId(TestVariable.PRESSURE),
                device.nodeId(TestVariable.INT32), device.nodeId(TestVariable.SETPOINT),
                postgres.jdbcUrl(), postgres.jdbcUrl());
        GatewayConfig config = ConfigLoader.parse("console-test.yaml", yaml, GatewayConfig.class, Map.of());
        DataDirectory data = DataDirectory.open(dir.resolve("data"));
        Gateway gateway = new Gateway(config, data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        ConsoleTestGateway started = new ConsoleTestGateway(postgres, device, data, gateway);
        started.createUser(ENGINEER, "engineer");
        started.createUser(VIEWER, "viewer");
        return started;
    }

    private void createUser(String name, String role) {
        admin.write("/api/v1/users", """
                {"name": "%s", "password": "%s", "roles": ["%s"]}""".formatted(name, PASSWORD, role));
    }

    /** How many items a channel's quarantine holds, as the API reports it. */
    long quarantined(String connection) {
        return admin.read("/api/v1/store-forward/" + connection + "/quarantine").get("total").asLong();
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
