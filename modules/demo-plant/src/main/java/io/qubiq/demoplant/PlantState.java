package io.qubiq.demoplant;

/**
 * One moment of the simulated plant, as its instruments show it: measured values carry sensor
 * noise, setpoints and states are exact. Every number is finite and within its documented range.
 * Immutable.
 *
 * @param tick                  how many ticks the model has run; 0 is the initial state
 * @param levelM                tank level, 0 to 5 m
 * @param levelSetpointM        the level the controller holds, 0 to 5 m (writable)
 * @param inflowM3PerH          flow through the inlet valve, m³/h
 * @param outflowM3PerH         flow the pump draws from the tank, m³/h
 * @param tankTemperatureC      product temperature in the tank, °C
 * @param valvePositionPercent  inlet valve opening, 0 to 100 %
 * @param pumpEnabled           whether the operator allows the pump to run (writable)
 * @param pumpRunning           whether the pump runs: enabled and not stopped by low level
 * @param speedSetpointRpm      the speed the motor ramps toward, 0 when the pump is stopped
 * @param speedRpm              motor speed, rpm
 * @param currentA              motor current, A
 * @param motorTemperatureC     motor winding temperature, °C
 * @param productionCount       units produced since start (one per {@value PlantModel#UNIT_VOLUME_M3} m³ pumped)
 * @param ambientTemperatureC   air temperature around the plant, °C
 * @param motorPowerKw          electrical power the motor draws, kW (from the measured current)
 * @param motorEnergyKwh        energy the motor has drawn since start, kWh (never decreases)
 */
public record PlantState(long tick, double levelM, double levelSetpointM, double inflowM3PerH, double outflowM3PerH,
                         double tankTemperatureC, double valvePositionPercent, boolean pumpEnabled,
                         boolean pumpRunning, double speedSetpointRpm, double speedRpm, double currentA,
                         double motorTemperatureC, long productionCount, double ambientTemperatureC,
                         double motorPowerKw, double motorEnergyKwh) {
}
