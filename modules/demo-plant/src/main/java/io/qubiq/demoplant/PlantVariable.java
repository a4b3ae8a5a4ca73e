package io.qubiq.demoplant;

import io.qubiq.core.tag.DataType;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;

/**
 * The variables of the demo plant's {@code Plant} folder: node id, suggested tag path, OPC UA
 * type, whether writable, unit, meaning, and how the value is read off a {@link PlantState}.
 */
enum PlantVariable {
    TANK_LEVEL("Tank.Level", "demo/tank/level", Kind.DOUBLE, false, "m",
            "Tank level, 0 to 5 m.", PlantState::levelM),
    TANK_LEVEL_SETPOINT("Tank.LevelSetpoint", "demo/tank/level_setpoint", Kind.DOUBLE, true, "m",
            "Level the controller holds by moving the inlet valve; write 0 to 5.", PlantState::levelSetpointM),
    TANK_INFLOW("Tank.Inflow", "demo/tank/inflow", Kind.DOUBLE, false, "m3/h",
            "Flow into the tank through the inlet valve.", PlantState::inflowM3PerH),
    TANK_OUTFLOW("Tank.Outflow", "demo/tank/outflow", Kind.DOUBLE, false, "m3/h",
            "Flow the pump draws from the tank.", PlantState::outflowM3PerH),
    TANK_TEMPERATURE("Tank.Temperature", "demo/tank/temperature", Kind.DOUBLE, false, "degC",
            "Product temperature; drifts slowly around 18 degC.", PlantState::tankTemperatureC),
    VALVE_POSITION("Valve.Position", "demo/valve/position", Kind.DOUBLE, false, "%",
            "Inlet valve opening set by the level controller.", PlantState::valvePositionPercent),
    PUMP_ENABLED("Pump.Enabled", "demo/pump/enabled", Kind.BOOLEAN, true, null,
            "Operator permission for the pump to run; write true or false.", PlantState::pumpEnabled),
    PUMP_RUNNING("Pump.Running", "demo/pump/running", Kind.BOOLEAN, false, null,
            "Whether the pump runs: enabled, and not stopped by low level (below 0.5 m until above 1.0 m).",
            PlantState::pumpRunning),
    MOTOR_SPEED_SETPOINT("Motor.SpeedSetpoint", "demo/motor/speed_setpoint", Kind.DOUBLE, false, "rpm",
            "Speed demand (1000 to 1450 rpm, changes every minute); 0 while the pump is stopped.",
            PlantState::speedSetpointRpm),
    MOTOR_SPEED("Motor.Speed", "demo/motor/speed", Kind.DOUBLE, false, "rpm",
            "Motor speed, ramping toward the speed setpoint.", PlantState::speedRpm),
    MOTOR_CURRENT("Motor.Current", "demo/motor/current", Kind.DOUBLE, false, "A",
            "Motor current; follows the load and peaks while accelerating.", PlantState::currentA),
    MOTOR_TEMPERATURE("Motor.Temperature", "demo/motor/temperature", Kind.DOUBLE, false, "degC",
            "Motor winding temperature; rises slowly with the current.", PlantState::motorTemperatureC),
    PRODUCTION_COUNT("Line.ProductionCount", "demo/line/production_count", Kind.UINT32, false, null,
            "Units produced, one per 0.05 m3 pumped; counts only while the pump runs.",
            state -> Unsigned.uint(state.productionCount() & 0xFFFF_FFFFL));

    /** The OPC UA types the plant uses and the gateway types they arrive as. */
    enum Kind {
        DOUBLE("Double", NodeIds.Double, DataType.FLOAT64),
        BOOLEAN("Boolean", NodeIds.Boolean, DataType.BOOLEAN),
        UINT32("UInt32", NodeIds.UInt32, DataType.INT64);

        final String opcUaName;
        final NodeId dataType;
        final DataType gatewayType;

        Kind(String opcUaName, NodeId dataType, DataType gatewayType) {
            this.opcUaName = opcUaName;
            this.dataType = dataType;
            this.gatewayType = gatewayType;
        }
    }

    /** The namespace index of {@value PlantNamespace#URI}: the first one after the server's own. */
    static final int NAMESPACE_INDEX = 2;

    private final String id;
    private final String tagPath;
    private final Kind kind;
    private final boolean writable;
    private final String unit;
    private final String meaning;
    private final Function<PlantState, Object> value;

    PlantVariable(String id, String tagPath, Kind kind, boolean writable, String unit, String meaning,
                  Function<PlantState, Object> value) {
        this.id = "Plant." + id;
        this.tagPath = tagPath;
        this.kind = kind;
        this.writable = writable;
        this.unit = unit;
        this.meaning = meaning;
        this.value = value;
    }

    /** The string identifier of the node, such as {@code Plant.Tank.Level}. */
    String id() {
        return id;
    }

    Kind kind() {
        return kind;
    }

    boolean writable() {
        return writable;
    }

    /** The variable's value in {@code state}, as the Java type Milo carries its OPC UA type in. */
    Object valueIn(PlantState state) {
        return value.apply(state);
    }

    NodeInfo info() {
        return new NodeInfo("ns=" + NAMESPACE_INDEX + ";s=" + id, tagPath, kind.opcUaName, kind.gatewayType, writable,
                Optional.ofNullable(unit), meaning);
    }
}
