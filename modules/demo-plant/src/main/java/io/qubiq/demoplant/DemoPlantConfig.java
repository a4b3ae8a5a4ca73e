package io.qubiq.demoplant;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.time.Duration;

/** The settings of the simulated plant that {@code qubiq demo} starts; see docs/demo.md. */
@Doc("The simulated plant of the demo: an OPC UA server on 127.0.0.1 serving a simulated tank, pump and motor.")
public record DemoPlantConfig(
        @Doc("TCP port of the plant's OPC UA server on 127.0.0.1. 0 picks a free port (the endpoint URL is logged).")
        @Default("4840")
        @Range(min = 0, max = 65535)
        int opcuaPort,

        @Doc("How often the simulation advances and the server's values change.")
        @Default("200")
        @Range(min = 10, max = 10000)
        long tickMs,

        @Doc("Seed of the simulated noise and demand changes; the same seed gives the same run.")
        @Default("1")
        long seed) {

    /** The defaults: port 4840, a 200 ms tick, seed 1. */
    public static DemoPlantConfig defaults() {
        return new DemoPlantConfig(4840, 200, 1);
    }

    /** The same plant on another port (0 for a free one); for tests and the demo command's flags. */
    public DemoPlantConfig withOpcuaPort(int port) {
        return new DemoPlantConfig(port, tickMs, seed);
    }

    public Duration tick() {
        return Duration.ofMillis(tickMs);
    }
}
