package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a changed key restarts: one connection, one pipeline, the historian, or the whole gateway. */
class RunningConfigAccessTest {

    @Test
    void aKeyInsideOneConnectionOrPipelineRestartsOnlyThatOne() {
        assertThat(RunningConfigAccess.componentOf("devices.plc1.opcua.tags[3].path")).contains("device:plc1");
        assertThat(RunningConfigAccess.componentOf("devices.plc-2")).contains("device:plc-2");
        assertThat(RunningConfigAccess.componentOf("outbound.db.store_and_forward.max_bytes")).contains("outbound:db");
        assertThat(RunningConfigAccess.componentOf("pipelines.counts.outputs[0].connection"))
                .contains("pipeline:counts");
        assertThat(RunningConfigAccess.componentOf("historian.linger_ms")).contains("historian");
        assertThat(RunningConfigAccess.componentOf("historian")).contains("historian");
    }

    @Test
    void anyOtherKeyRestartsTheGateway() {
        assertThat(RunningConfigAccess.componentOf("http.port")).contains("gateway");
        assertThat(RunningConfigAccess.componentOf("devices")).as("the whole map, emptied: its entries say what").isEmpty();
        assertThat(RunningConfigAccess.componentOf("questdb.embedded")).contains("gateway");
        assertThat(RunningConfigAccess.componentOf("historians.x")).contains("gateway");
    }
}
