package io.qubiq.demoplant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.config.ConfigReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** docs/demo.md is checked against the declarations; regenerate with -Dqubiq.config.reference.update=true. */
class DemoDocsTest {

    static final Path DOC = Path.of(System.getProperty("qubiq.repo", "../..")).resolve("docs/demo.md");
    static final String BEGIN = "<!-- BEGIN GENERATED: demo-plant-nodes -->";
    static final String END = "<!-- END GENERATED: demo-plant-nodes -->";
    static final String TOPICS_BEGIN = "<!-- BEGIN GENERATED: demo-plant-topics -->";
    static final String TOPICS_END = "<!-- END GENERATED: demo-plant-topics -->";

    /** The nodes table as docs/demo.md shows it, ending with a newline. */
    static String nodesTable() {
        StringBuilder table = new StringBuilder()
                .append("| Node id | Tag path | OPC UA type (gateway type) | Writable | Unit | Meaning |\n")
                .append("|---|---|---|---|---|---|\n");
        for (NodeInfo node : SimulatedPlant.nodes()) {
            table.append("| `").append(node.nodeId()).append("` | `").append(node.tagPath()).append("` | ")
                    .append(node.opcUaType()).append(" (").append(node.gatewayType().name().toLowerCase())
                    .append(") | ").append(node.writable() ? "yes" : "no").append(" | ")
                    .append(node.engineeringUnit().orElse("")).append(" | ").append(node.meaning()).append(" |\n");
        }
        return table.toString();
    }

    /** The MQTT topics table as docs/demo.md shows it, ending with a newline. */
    static String topicsTable() {
        StringBuilder table = new StringBuilder()
                .append("| Topic | Tag path | Gateway type | Command topic | Unit | Meaning |\n")
                .append("|---|---|---|---|---|---|\n");
        for (TopicInfo topic : SimulatedPlant.topics()) {
            table.append("| `").append(topic.topic()).append("` | `").append(topic.tagPath()).append("` | ")
                    .append(topic.gatewayType().name().toLowerCase()).append(" | ")
                    .append(topic.commandTopic().map(t -> "`" + t + "`").orElse("")).append(" | ")
                    .append(topic.engineeringUnit().orElse("")).append(" | ").append(topic.meaning()).append(" |\n");
        }
        return table.toString();
    }

    @Test
    void theNodesTableListsEveryNodeAsDeclared() throws IOException {
        checkOrUpdate(BEGIN, END, nodesTable());
    }

    @Test
    void theTopicsTableListsEveryTopicAsDeclared() throws IOException {
        checkOrUpdate(TOPICS_BEGIN, TOPICS_END, topicsTable());
    }

    private static void checkOrUpdate(String begin, String end, String table) throws IOException {
        String text = Files.readString(DOC, StandardCharsets.UTF_8).replace("\r\n", "\n");
        int start = text.indexOf(begin);
        int stop = text.indexOf(end);
        assertThat(start).as("%s has the %s marker", DOC, begin).isNotNegative();
        assertThat(stop).as("%s has the %s marker", DOC, end).isGreaterThan(start);
        String expected = begin + "\n" + table;
        if (Boolean.getBoolean(ConfigReference.UPDATE_PROPERTY)) {
            Files.writeString(DOC, text.substring(0, start) + expected + text.substring(stop), StandardCharsets.UTF_8);
            return;
        }
        assertThat(text.substring(start, stop)).as("the table in %s; regenerate it with -D%s=true", DOC,
                ConfigReference.UPDATE_PROPERTY).isEqualTo(expected);
    }

    @Test
    void theConfigurationReferenceListsEveryKeyAsDeclared() {
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(DOC, DemoPlantConfig.class);
        assertThat(mismatch).as("docs/demo.md is out of date").isEmpty();
    }

    @Test
    void nodeIdsAndTagPathsAreUniqueAndExactlyTheTwoSetpointsAreWritable() {
        Set<String> ids = new HashSet<>();
        Set<String> paths = new HashSet<>();
        for (NodeInfo node : SimulatedPlant.nodes()) {
            assertThat(ids.add(node.nodeId())).as(node.nodeId()).isTrue();
            assertThat(paths.add(node.tagPath())).as(node.tagPath()).isTrue();
            assertThat(node.nodeId()).startsWith("ns=2;s=Plant.");
            assertThat(node.tagPath()).startsWith("demo/");
        }
        assertThat(SimulatedPlant.nodes()).filteredOn(NodeInfo::writable).extracting(NodeInfo::tagPath)
                .containsExactly("demo/tank/level_setpoint", "demo/pump/enabled");
    }

    @Test
    void topicTagPathsFollowTheTemplateAndCollideWithNoOpcUaTag() {
        Set<String> opcua = new HashSet<>();
        SimulatedPlant.nodes().forEach(node -> opcua.add(node.tagPath()));
        for (TopicInfo topic : SimulatedPlant.topics()) {
            String[] levels = topic.topic().split("/");
            assertThat(levels).hasSize(3);
            assertThat(topic.tagPath()).isEqualTo(SimulatedPlant.MQTT_TAG_TEMPLATE.replace("{1}", levels[1])
                    .replace("{2}", levels[2]));
            assertThat(opcua).as("a tag has one source").doesNotContain(topic.tagPath());
            topic.commandTopic().ifPresent(command -> assertThat(command.split("/")).as("a command topic is not"
                    + " matched by %s", SimulatedPlant.MQTT_TOPIC_FILTER).hasSize(4));
        }
    }
}
