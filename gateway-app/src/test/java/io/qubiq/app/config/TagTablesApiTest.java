package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.FileGateway;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.core.tag.TagPath;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A device connection's tags exported as CSV and imported back, against a real OPC UA server (Milo): a
 * row added in the table is a tag collecting within seconds, without a restart; a bad row is refused at its
 * CSV line and the file is left byte for byte as it was. Would catch an import that writes part of a table,
 * problems that name no line, and an imported tag that waits for a restart.
 */
@ExtendWith(OpcUaServerExtension.class)
class TagTablesApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private Path file;
    private FileGateway running;
    private Gateway gateway;
    private ConsoleClient admin;
    private TestOpcUaServer server;

    @BeforeEach
    void start(TestOpcUaServer server) throws Exception {
        this.server = server;
        running = FileGateway.start(dir, """
                http:
                  port: 0
                logging:
                  file_enabled: false
                devices:
                  plc1:
                    opcua:
                      endpoint_url: %s
                      tags:
                        - path: plant/pressure
                          node_id: "%s"
                          sampling_interval_ms: 50
                """.formatted(server.endpointUrl(), server.nodeId(TestVariable.PRESSURE)));
        file = running.file;
        gateway = running.gateway;
        admin = TestOperators.admin(gateway);
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
    }

    private JsonNode export() throws Exception {
        HttpResponse<String> answer = admin.get("/api/v1/connections/plc1/tags/export");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return JSON.readTree(answer.body());
    }

    private HttpResponse<String> importCsv(String revision, String csv) throws Exception {
        return admin.post("/api/v1/connections/plc1/tags/import", JSON.writeValueAsString(Map.of(
                "revision", revision, "csv", csv, "comment", "from the spreadsheet")));
    }

    @Test
    void aRowAddedToTheExportedTableIsATagCollectingWithoutARestart() throws Exception {
        JsonNode table = export();
        String csv = table.path("csv").asText();
        assertThat(table.path("file").asText()).isEqualTo("plc1-tags.csv");
        assertThat(csv).startsWith("path,node_id,sampling_interval_ms,")
                .contains("plant/pressure," + server.nodeId(TestVariable.PRESSURE) + ",50,");
        String header = csv.lines().findFirst().orElseThrow();
        String added = "line/count," + server.nodeId(TestVariable.INT32) + ",50"
                + ",".repeat(header.split(",").length - 3) + "\r\n";

        HttpResponse<String> answer = importCsv(table.path("revision").asText(), csv + added);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(JSON.readTree(answer.body()).path("applied").toString()).contains("device:plc1");
        server.setValue(TestVariable.INT32, 41);
        await().atMost(Duration.ofSeconds(20)).until(() ->
                gateway.tagBus().latestValues().latest(TagPath.of("line/count")).isPresent());
        assertThat(Files.readString(file)).contains("path: line/count");
        assertThat(admin.get("/api/v1/config/revisions").body()).contains("from the spreadsheet");
    }

    @Test
    void aBadRowIsRefusedAtItsLineAndNothingIsWritten() throws Exception {
        JsonNode table = export();
        byte[] before = Files.readAllBytes(file);
        String csv = "path,node_id,sampling_interval_ms\r\nplant/pressure," + server.nodeId(TestVariable.PRESSURE)
                + ",50\r\nline/count," + server.nodeId(TestVariable.INT32) + ",fast\r\n";

        HttpResponse<String> answer = importCsv(table.path("revision").asText(), csv);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(422);
        JsonNode problem = JSON.readTree(answer.body()).path("problems").get(0);
        assertThat(problem.path("line").asInt()).isEqualTo(3);
        assertThat(problem.path("message").asText()).startsWith("line 3: sampling_interval_ms: expected an integer");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);

        HttpResponse<String> unreadable = importCsv(table.path("revision").asText(), "path,node_id\na,b,c\n");
        assertThat(unreadable.statusCode()).isEqualTo(422);
        assertThat(unreadable.body()).contains("line 2: the row has 3 cells");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void anImportOnAStaleRevisionIsRefusedAndAnUnknownConnectionIsNotFound() throws Exception {
        JsonNode table = export();
        assertThat(admin.put("/api/v1/config/devices.plc1.opcua.publishing_interval_ms", JSON.writeValueAsString(
                Map.of("revision", table.path("revision").asText(), "value", 250))).statusCode()).isEqualTo(200);

        assertThat(importCsv(table.path("revision").asText(), table.path("csv").asText()).statusCode()).isEqualTo(409);
        assertThat(admin.get("/api/v1/connections/nope/tags/export").statusCode()).isEqualTo(404);
    }
}
