package io.qubiq.app.console;

import static io.qubiq.app.console.ConsoleTestGateway.ENGINEER;
import static io.qubiq.app.console.ConsoleTestGateway.PASSWORD;
import static io.qubiq.app.console.ConsoleTestGateway.VIEWER;

import com.fasterxml.jackson.databind.JsonNode;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import io.qubiq.testkit.postgres.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * A whole gateway started from a configuration file (configuration writes need one) for the pipeline
 * editor's tests: an OPC UA device (the test server) with the tags {@code plant/pressure} and
 * {@code plant/level}, one outbound connection {@code db} to a real PostgreSQL with the tables
 * {@code readings} (fed by the pipeline {@code pressures}) and {@code tried} (written by nothing
 * configured), an administrator, an engineer and a viewer.
 *
 * <p>Threading: started and closed by the test class; the helpers may be called from any thread.
 */
final class PipelineTestGateway implements AutoCloseable {

    private static final String YAML = TestOperators.AUTH_YAML + """
            gateway: {name: plant-edge}
            http:
              port: 0
            logging:
              file_enabled: false
            devices:
              plc1:
                opcua:
                  endpoint_url: %s
                  tags:
                    - {path: plant/pressure, node_id: "%s", sampling_interval_ms: 20}
                    - {path: plant/level, node_id: "%s", sampling_interval_ms: 20}
            outbound:
              db:
                sql: {jdbc_url: "%s", username: postgres, connection_timeout_ms: 1000}
            pipelines:
              pressures:
                trigger: {tags: ["plant/pressure"]}
                outputs:
                  - connection: db
                    sql:
                      statement: "INSERT INTO readings (value) VALUES (:value)"
                      parameters: {value: "value"}
            """;

    final PostgresServer postgres;
    final TestOpcUaServer device;
    final DataDirectory data;
    final Gateway gateway;
    final String base;
    final ConsoleClient admin;
    final ConsoleClient engineer;
    final ConsoleClient viewer;

    private PipelineTestGateway(PostgresServer postgres, TestOpcUaServer device, DataDirectory data, Gateway gateway) {
        this.postgres = postgres;
        this.device = device;
        this.data = data;
        this.gateway = gateway;
        this.base = "http://127.0.0.1:" + gateway.console().port();
        this.admin = TestOperators.admin(gateway);
        for (String[] user : new String[][] {{ENGINEER, "engineer"}, {VIEWER, "viewer"}}) {
            int status = admin.post("/api/v1/users", """
                    {"name": "%s", "password": "%s", "roles": ["%s"]}""".formatted(user[0], PASSWORD, user[1]))
                    .statusCode();
            if (status != 200 && status != 201) {
                throw new AssertionError("creating " + user[0] + ": " + status);
            }
        }
        this.engineer = ConsoleClient.signedIn(base, ENGINEER, PASSWORD);
        this.viewer = ConsoleClient.signedIn(base, VIEWER, PASSWORD);
    }

    static PipelineTestGateway start(Path dir) throws Exception {
        PostgresServer postgres = PostgresServer.start(dir.resolve("postgres"));
        postgres.execute("CREATE TABLE readings (id bigserial PRIMARY KEY, value double precision)",
                "CREATE TABLE tried (id bigserial PRIMARY KEY, value double precision, note text)");
        TestOpcUaServer device = TestOpcUaServer.onFreePort().start();
        Path file = Files.writeString(dir.resolve("gateway.yaml"), YAML.formatted(device.endpointUrl(),
                device.nodeId(TestVariable.PRESSURE), device.nodeId(TestVariable.INT32), postgres.jdbcUrl()));
        DataDirectory data = DataDirectory.open(dir.resolve("data"));
        Gateway gateway = new Gateway(ConfigSource.loadFile(file, Map.of(), data.root()), data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        return new PipelineTestGateway(postgres, device, data, gateway);
    }

    /** The db channel's status. */
    JsonNode channel() {
        return ConsoleTestGateway.json(admin.get("/api/v1/store-forward/db"), "the db channel");
    }

    /** The configuration's file revision, for a write. */
    String revision() {
        return ConsoleTestGateway.json(admin.get("/api/v1/config"), "the configuration").path("fileRevision").asText();
    }

    @Override
    public void close() throws Exception {
        try {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        } finally {
            try {
                data.close();
            } finally {
                try {
                    device.close();
                } finally {
                    postgres.close();
                }
            }
        }
    }
}
