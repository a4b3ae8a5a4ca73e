package io.qubiq.demoplant;

import io.qubiq.core.tag.DataType;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The topics of the demo plant's MQTT side: {@code demo-plant/<device>/<measurement>}, read by the
 * demo as tags {@code demo/<device>/<measurement>} through one wildcard subscription
 * ({@link #FILTER}, template {@link #TAG_TEMPLATE}). Each message is JSON:
 * <pre>{"value": 7.1, "timestamp": "2026-03-01T12:00:00.200Z", "quality": "good", "unit": "kW"}</pre>
 * The remote level setpoint also takes writes on {@code <topic>/set}, as plain text ({@code 3.5})
 * or JSON ({@code {"value": 3.5}}).
 */
enum PlantTopic {
    METER_POWER("meter/power", "kW",
            "Electrical power of the pump motor (400 V three-phase, power factor 0.85).", PlantState::motorPowerKw, false),
    METER_ENERGY("meter/energy", "kWh",
            "Energy the pump motor has drawn since the plant started; never decreases.", PlantState::motorEnergyKwh,
            false),
    AMBIENT_TEMPERATURE("ambient/temperature", "degC",
            "Air temperature around the plant; drifts slowly around 25 degC.", PlantState::ambientTemperatureC, false),
    REMOTE_LEVEL_SETPOINT("remote/level_setpoint", "m",
            "The tank's level setpoint (the one OPC UA shows as demo/tank/level_setpoint); write 0 to 5.",
            PlantState::levelSetpointM, true);

    /** Every topic starts with this level. */
    static final String ROOT = "demo-plant";
    /** The filter that matches every topic of the plant (and none of the command topics). */
    static final String FILTER = ROOT + "/+/+";
    /** The tag path template for {@link #FILTER}: {@code demo-plant/meter/power} becomes {@code demo/meter/power}. */
    static final String TAG_TEMPLATE = "demo/{1}/{2}";
    /** What a command topic adds to its topic. */
    static final String COMMAND_SUFFIX = "/set";

    private final String suffix;
    private final String unit;
    private final String meaning;
    private final ToDoubleFunction<PlantState> value;
    private final boolean writable;

    PlantTopic(String suffix, String unit, String meaning, ToDoubleFunction<PlantState> value, boolean writable) {
        this.suffix = suffix;
        this.unit = unit;
        this.meaning = meaning;
        this.value = value;
        this.writable = writable;
    }

    String topic() {
        return ROOT + "/" + suffix;
    }

    String unit() {
        return unit;
    }

    Optional<String> commandTopic() {
        return writable ? Optional.of(topic() + COMMAND_SUFFIX) : Optional.empty();
    }

    double valueIn(PlantState state) {
        return value.applyAsDouble(state);
    }

    TopicInfo info() {
        return new TopicInfo(topic(), "demo/" + suffix, DataType.FLOAT64, commandTopic(), Optional.of(unit), meaning);
    }
}
