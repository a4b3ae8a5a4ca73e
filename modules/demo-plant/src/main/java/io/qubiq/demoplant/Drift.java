package io.qubiq.demoplant;

import java.util.Random;

/**
 * A quantity that wanders slowly and randomly around a mean and always returns to it (an
 * Ornstein-Uhlenbeck process): {@code sd} is its typical distance from the mean, {@code tauS} how
 * long a deviation takes to fade. Clamped to {@code [min, max]}. Not thread-safe; owned by
 * {@link PlantModel}.
 */
final class Drift {

    private final double mean;
    private final double sd;
    private final double tauS;
    private final double min;
    private final double max;
    private double value;

    Drift(double mean, double sd, double tauS, double min, double max) {
        this.mean = mean;
        this.sd = sd;
        this.tauS = tauS;
        this.min = min;
        this.max = max;
        this.value = mean;
    }

    double step(Random random, double dtS) {
        double pull = (mean - value) * Math.min(1, dtS / tauS);
        double push = sd * Math.sqrt(2 * dtS / tauS) * random.nextGaussian();
        value = LevelController.clamp(value + pull + push, min, max);
        return value;
    }

    double value() {
        return value;
    }
}
