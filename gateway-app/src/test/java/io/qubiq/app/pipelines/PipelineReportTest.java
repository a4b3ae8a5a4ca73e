package io.qubiq.app.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.console.ConsoleServer;
import io.qubiq.pipeline.PipelineOutput;
import io.qubiq.pipeline.PipelineStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The console's pipeline record answers with exactly the JSON the API gave when it serialized the
 * pipeline's own status. Would catch a field dropped, renamed or mapped from the wrong one.
 */
class PipelineReportTest {

    private final ObjectMapper json = ConsoleServer.jsonMapper();

    private JsonNode tree(Object value) {
        return json.valueToTree(value);
    }

    @Test
    void aPipelineReadsAsItsStatusDid() {
        Instant t = Instant.parse("2026-12-02T15:30:00Z");
        PipelineStatus status = new PipelineStatus("ovens", true, "tag plant/oven/*", 1, 2, 3, 4, 5, 6,
                Optional.of("division by zero"), Optional.of(t), Optional.of(t.plusSeconds(1)),
                List.of(new PipelineOutput.OutputCounts("db", 7, 8), new PipelineOutput.OutputCounts("mq", 9, 0)));

        assertThat(tree(PipelinesAccess.report(status))).isEqualTo(tree(status));
    }
}
