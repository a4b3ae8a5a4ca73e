package io.qubiq.demoplant;

/**
 * The tank's level controller: a PI controller with feed-forward of the outflow that sets the
 * inlet valve (0 to 1). The integral stops growing while the valve is saturated (anti-windup), so
 * a long stop at an end position does not make the level overshoot afterwards. Not thread-safe;
 * owned by {@link PlantModel}.
 */
final class LevelController {

    /** Valve opening per metre of level error. */
    static final double GAIN_PER_M = 2.0;
    /** Integral gain, valve opening per metre of error per second. */
    static final double INTEGRAL_PER_M_S = 0.02;
    /** Largest integral contribution either way. */
    private static final double INTEGRAL_LIMIT = 0.3;

    private double integral;

    /**
     * The valve opening that moves {@code levelM} toward {@code setpointM}, given the supply the
     * open valve would pass and the outflow to make up for.
     */
    double valve(double setpointM, double levelM, double supplyM3PerS, double outflowM3PerS, double dtS) {
        double error = setpointM - levelM;
        double feedForward = supplyM3PerS > 0 ? outflowM3PerS / supplyM3PerS : 0;
        double unclamped = feedForward + GAIN_PER_M * error + integral;
        boolean saturated = (unclamped >= 1 && error > 0) || (unclamped <= 0 && error < 0);
        if (!saturated) {
            integral = clamp(integral + INTEGRAL_PER_M_S * error * dtS, -INTEGRAL_LIMIT, INTEGRAL_LIMIT);
        }
        return clamp(feedForward + GAIN_PER_M * error + integral, 0, 1);
    }

    static double clamp(double value, double min, double max) {
        return Math.max(min, Math.min(max, value));
    }
}
