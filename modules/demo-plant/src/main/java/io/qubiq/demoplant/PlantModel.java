package io.qubiq.demoplant;

import java.time.Duration;
import java.util.Random;

/**
 * The simulated process behind the demo plant: a 5 m tank fed through a level-controlled inlet
 * valve and emptied by a motor-driven pump. Stepped on a fixed tick; the same seed and the same
 * sequence of steps and writes give the same states, so it is tested without a server or a clock.
 *
 * <ul>
 *   <li><b>Tank.</b> The level (0 to 5 m, {@value #TANK_AREA_M2} m² cross-section) rises with the
 *       inflow and falls with the outflow. A full tank spills; an empty one cannot be pumped.
 *   <li><b>Inlet.</b> Inflow is the valve opening times the supply, which wanders slowly around
 *       {@value #SUPPLY_NOMINAL_M3_PER_S} m³/s (±10 %). The {@link LevelController} moves the valve
 *       (at most {@value #VALVE_SLEW_PER_S} of its stroke per second) to hold the level setpoint.
 *   <li><b>Pump.</b> It runs while enabled, except that it stops when the level falls below
 *       {@value #PUMP_STOP_LEVEL_M} m and starts again only above {@value #PUMP_START_LEVEL_M} m
 *       (hysteresis). Outflow is proportional to motor speed while it runs.
 *   <li><b>Motor.</b> The speed ramps ({@value #SPEED_RAMP_RPM_PER_S} rpm/s) toward a demand that
 *       changes every {@value #DEMAND_PERIOD_S} s between {@value #DEMAND_MIN_RPM} and
 *       {@value #NOMINAL_SPEED_RPM} rpm, or toward 0 when the pump stops. The current follows the
 *       load (the cube of the speed, as for a centrifugal pump) plus acceleration; the winding
 *       temperature follows the current's square with a time constant of {@value #MOTOR_THERMAL_TAU_S} s.
 *   <li><b>Product.</b> Its temperature drifts slowly around 18 °C; the ambient around 25 °C.
 *   <li><b>Energy meter.</b> The motor's electrical power is {@value #SUPPLY_VOLTAGE_V} V three-phase
 *       at a power factor of {@value #POWER_FACTOR} times the measured current; the energy is its
 *       integral since start, in kWh.
 *   <li><b>Counter.</b> One unit per {@value #UNIT_VOLUME_M3} m³ pumped, so it counts only while the
 *       pump runs.
 * </ul>
 *
 * Measured values carry Gaussian sensor noise and are clamped to their ranges, so no state holds
 * NaN or leaves its bounds however long the model runs.
 *
 * <p>Thread-safe: every public method is synchronized. The plant's tick thread steps it; OPC UA
 * writes set its setpoints from the server's threads, taking effect on the next step.
 */
public final class PlantModel {

    public static final double TANK_HEIGHT_M = 5.0;
    public static final double TANK_AREA_M2 = 1.0;
    public static final double SUPPLY_NOMINAL_M3_PER_S = 0.060;
    public static final double PUMP_MAX_M3_PER_S = 0.030;
    public static final double PUMP_STOP_LEVEL_M = 0.5;
    public static final double PUMP_START_LEVEL_M = 1.0;
    public static final double NOMINAL_SPEED_RPM = 1450;
    public static final double DEMAND_MIN_RPM = 1000;
    public static final double DEMAND_PERIOD_S = 60;
    public static final double SPEED_RAMP_RPM_PER_S = 500;
    public static final double VALVE_SLEW_PER_S = 0.2;
    public static final double RATED_CURRENT_A = 12;
    public static final double MOTOR_THERMAL_TAU_S = 180;
    public static final double UNIT_VOLUME_M3 = 0.05;
    public static final double SUPPLY_VOLTAGE_V = 400;
    public static final double POWER_FACTOR = 0.85;

    private static final double NO_LOAD_CURRENT_A = 3.5;
    private static final double LOAD_CURRENT_A = 8.5;
    private static final double ACCELERATION_A_PER_RPM_S = 0.004;
    private static final double MOTOR_TEMPERATURE_RISE_C = 45;

    private final Random random;
    private final double dtS;
    private final long demandTicks;
    private final LevelController controller = new LevelController();
    private final Drift supplyDeviation = new Drift(0, 0.04, 300, -0.1, 0.1);
    private final Drift ambientC = new Drift(25, 1.0, 900, 15, 35);
    private final Drift productC = new Drift(18, 1.5, 600, 8, 28);

    private long tick;
    private double levelM = 2.5;
    private double levelSetpointM = 2.5;
    private double valve = 0.4;
    private boolean pumpEnabled = true;
    private boolean lowLevelStop;
    private double demandRpm = NOMINAL_SPEED_RPM;
    private double speedRpm;
    private double motorTemperatureC = 25;
    private double pumpedSinceLastUnitM3;
    private long productionCount;
    private double energyKwh;
    private PlantState state;

    /**
     * @param seed the noise and demand sequence; the same seed gives the same run
     * @param tick the simulated time one {@link #step()} advances, 1 ms to 10 s
     */
    public PlantModel(long seed, Duration tick) {
        if (tick.isNegative() || tick.toMillis() < 1 || tick.toMillis() > 10_000) {
            throw new IllegalArgumentException("the tick must be between 1 ms and 10 s, was " + tick.toMillis() + " ms");
        }
        this.random = new Random(seed);
        this.dtS = tick.toNanos() / 1e9;
        this.demandTicks = Math.max(1, Math.round(DEMAND_PERIOD_S / dtS));
        this.state = measure(0, 0, 0);
    }

    /** Advances the process by one tick and returns the new state. */
    public synchronized PlantState step() {
        tick++;
        if (tick % demandTicks == 0) {
            demandRpm = DEMAND_MIN_RPM + random.nextDouble() * (NOMINAL_SPEED_RPM - DEMAND_MIN_RPM);
        }
        double supply = SUPPLY_NOMINAL_M3_PER_S * (1 + supplyDeviation.step(random, dtS));
        ambientC.step(random, dtS);
        productC.step(random, dtS);

        // Pump: the low-level switch with hysteresis, then the motor ramp.
        if (levelM < PUMP_STOP_LEVEL_M) {
            lowLevelStop = true;
        } else if (levelM > PUMP_START_LEVEL_M) {
            lowLevelStop = false;
        }
        boolean running = pumpEnabled && !lowLevelStop;
        double speedSetpoint = running ? demandRpm : 0;
        double before = speedRpm;
        double maxChange = SPEED_RAMP_RPM_PER_S * dtS;
        speedRpm = before + LevelController.clamp(speedSetpoint - before, -maxChange, maxChange);
        double accelerationRpmPerS = (speedRpm - before) / dtS;
        double outflow = running ? PUMP_MAX_M3_PER_S * speedRpm / NOMINAL_SPEED_RPM : 0;

        // Inlet: the controller's demand, limited by the valve's stroke speed.
        double wanted = controller.valve(levelSetpointM, levelM, supply, outflow, dtS);
        double maxStroke = VALVE_SLEW_PER_S * dtS;
        valve = LevelController.clamp(valve + LevelController.clamp(wanted - valve, -maxStroke, maxStroke), 0, 1);
        double inflow = valve * supply;

        // Tank: cannot be pumped below empty; a full tank spills what it cannot hold.
        double available = levelM * TANK_AREA_M2 / dtS;
        outflow = Math.min(outflow, available + inflow);
        levelM = LevelController.clamp(levelM + (inflow - outflow) * dtS / TANK_AREA_M2, 0, TANK_HEIGHT_M);

        pumpedSinceLastUnitM3 += outflow * dtS;
        long units = (long) Math.floor(pumpedSinceLastUnitM3 / UNIT_VOLUME_M3);
        productionCount += units;
        pumpedSinceLastUnitM3 -= units * UNIT_VOLUME_M3;

        double current = motorCurrent(accelerationRpmPerS);
        double heatTarget = ambientC.value() + MOTOR_TEMPERATURE_RISE_C * square(current / RATED_CURRENT_A);
        motorTemperatureC += (heatTarget - motorTemperatureC) * Math.min(1, dtS / MOTOR_THERMAL_TAU_S);

        energyKwh += power(current) * dtS / 3600;

        state = measure(inflow, outflow, accelerationRpmPerS);
        return state;
    }

    /** The state after the last step (the initial state before the first). */
    public synchronized PlantState state() {
        return state;
    }

    /**
     * Sets the level the controller holds, from the next step on.
     *
     * @throws IllegalArgumentException when {@code metres} is not between 0 and {@value #TANK_HEIGHT_M}
     */
    public synchronized void setLevelSetpoint(double metres) {
        if (!validLevelSetpoint(metres)) {
            throw new IllegalArgumentException("the level setpoint must be between 0 and " + TANK_HEIGHT_M
                    + " m, was " + metres);
        }
        levelSetpointM = metres;
    }

    /** Whether {@code metres} is a level setpoint the model accepts. */
    public static boolean validLevelSetpoint(double metres) {
        return Double.isFinite(metres) && metres >= 0 && metres <= TANK_HEIGHT_M;
    }

    /** Allows or forbids the pump to run, from the next step on; the low-level stop applies either way. */
    public synchronized void setPumpEnabled(boolean enabled) {
        pumpEnabled = enabled;
    }

    private double motorCurrent(double accelerationRpmPerS) {
        if (speedRpm < 1) {
            return 0;
        }
        return NO_LOAD_CURRENT_A + LOAD_CURRENT_A * Math.pow(speedRpm / NOMINAL_SPEED_RPM, 3)
                + ACCELERATION_A_PER_RPM_S * Math.abs(accelerationRpmPerS);
    }

    /** Three-phase electrical power in kW for a line current in A. */
    private static double power(double currentA) {
        return Math.sqrt(3) * SUPPLY_VOLTAGE_V * currentA * POWER_FACTOR / 1000;
    }

    private PlantState measure(double inflow, double outflow, double accelerationRpmPerS) {
        double current = motorCurrent(accelerationRpmPerS);
        boolean running = pumpEnabled && !lowLevelStop;
        // The noise is drawn in this order, so a seed gives the same run as before the meter was added.
        double level = noisy(levelM, 0.003, 0, TANK_HEIGHT_M);
        double inflowM3PerH = inflow > 0 ? noisy(inflow * 3600, 0.2, 0, 1000) : 0;
        double outflowM3PerH = outflow > 0 ? noisy(outflow * 3600, 0.2, 0, 1000) : 0;
        double product = noisy(productC.value(), 0.05, -20, 100);
        double speed = speedRpm > 0 ? noisy(speedRpm, 2, 0, 2 * NOMINAL_SPEED_RPM) : 0;
        double measuredCurrent = current > 0 ? noisy(current, 0.08, 0, 5 * RATED_CURRENT_A) : 0;
        double motorC = noisy(motorTemperatureC, 0.05, -20, 150);
        return new PlantState(tick, level, levelSetpointM, inflowM3PerH, outflowM3PerH, product, valve * 100,
                pumpEnabled, running, running ? demandRpm : 0, speed, measuredCurrent, motorC, productionCount,
                ambientC.value(), power(measuredCurrent), energyKwh);
    }

    private double noisy(double value, double sigma, double min, double max) {
        return LevelController.clamp(value + sigma * random.nextGaussian(), min, max);
    }

    private static double square(double x) {
        return x * x;
    }
}
