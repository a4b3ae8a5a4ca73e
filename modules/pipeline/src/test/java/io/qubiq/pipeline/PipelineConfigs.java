package io.qubiq.pipeline;

import io.qubiq.config.ConfigLoader;
import io.qubiq.core.config.Doc;
import io.qubiq.pipeline.config.PipelineConfig;
import java.util.Map;

/** Binds pipeline YAML through the real configuration loader, as the gateway does. */
final class PipelineConfigs {

    @Doc("Test root: pipelines by id.")
    record Root(@Doc("Pipelines.") Map<String, PipelineConfig> pipelines) {
    }

    private PipelineConfigs() {
    }

    static Map<String, PipelineConfig> parse(String yaml) throws io.qubiq.config.ConfigException {
        return ConfigLoader.parse("test.yaml", yaml, Root.class, Map.of()).pipelines();
    }
}
