package io.qubiq.demoplant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class PlantModelTest {

    static final Duration TICK = Duration.ofMillis(200);
    static final int STEPS_PER_MINUTE = 300;

    private static PlantState stepUntil(PlantModel model, Predicate<PlantState> condition, int maxSteps) {
        for (int i = 0; i < maxSteps; i++) {
            PlantState state = model.step();
            if (condition.test(state)) {
                return state;
            }
        }
        throw new AssertionError("not reached within " + maxSteps + " steps: " + model.state());
    }

    private static List<PlantState> run(PlantModel model, int steps) {
        List<PlantState> states = new ArrayList<>(steps);
        for (int i = 0; i < steps; i++) {
            states.add(model.step());
        }
        return states;
    }

    @Test
    void everyValueStaysFiniteAndWithinItsRangeOverADayOfRandomOperatorWrites() {
        PlantModel model = new PlantModel(3, TICK);
        Random operator = new Random(99);
        long lastCount = 0;
        for (int i = 0; i < 24 * 60 * STEPS_PER_MINUTE; i++) {
            if (i % (5 * STEPS_PER_MINUTE) == 0) {
                model.setLevelSetpoint(operator.nextDouble() * PlantModel.TANK_HEIGHT_M);
                model.setPumpEnabled(operator.nextInt(4) != 0);
            }
            PlantState s = model.step();
            for (double value : new double[]{s.levelM(), s.levelSetpointM(), s.inflowM3PerH(), s.outflowM3PerH(),
                    s.tankTemperatureC(), s.valvePositionPercent(), s.speedSetpointRpm(), s.speedRpm(), s.currentA(),
                    s.motorTemperatureC()}) {
                assertThat(Double.isFinite(value)).as("finite at step %d: %s", i, s).isTrue();
            }
            assertThat(s.levelM()).isBetween(0.0, PlantModel.TANK_HEIGHT_M);
            assertThat(s.valvePositionPercent()).isBetween(0.0, 100.0);
            assertThat(s.inflowM3PerH()).isBetween(0.0, 1.1 * PlantModel.SUPPLY_NOMINAL_M3_PER_S * 3600 + 1);
            assertThat(s.outflowM3PerH()).isBetween(0.0, PlantModel.PUMP_MAX_M3_PER_S * 3600 + 1);
            assertThat(s.speedRpm()).isBetween(0.0, PlantModel.NOMINAL_SPEED_RPM + 10);
            assertThat(s.currentA()).isBetween(0.0, 20.0);
            assertThat(s.tankTemperatureC()).isBetween(5.0, 30.0);
            assertThat(s.motorTemperatureC()).isBetween(10.0, 90.0);
            assertThat(s.productionCount()).isGreaterThanOrEqualTo(lastCount);
            lastCount = s.productionCount();
        }
        assertThat(lastCount).isPositive();
    }

    @Test
    void theSameSeedGivesTheSameRunAndAnotherSeedADifferentOne() {
        PlantModel first = new PlantModel(42, TICK);
        PlantModel second = new PlantModel(42, TICK);
        PlantModel other = new PlantModel(43, TICK);
        for (PlantModel model : List.of(first, second, other)) {
            run(model, 1000);
            model.setLevelSetpoint(3.5);
            model.setPumpEnabled(false);
        }
        List<PlantState> a = run(first, 5000);
        List<PlantState> b = run(second, 5000);
        List<PlantState> c = run(other, 5000);

        assertThat(a).isEqualTo(b);
        assertThat(c).isNotEqualTo(a);
    }

    @Test
    void raisingAndLoweringTheLevelSetpointMovesTheLevelThere() {
        PlantModel model = new PlantModel(1, TICK);
        run(model, STEPS_PER_MINUTE);
        assertThat(model.state().levelM()).isCloseTo(2.5, within(0.1));

        model.setLevelSetpoint(4.0);
        List<PlantState> rising = run(model, 3 * STEPS_PER_MINUTE);
        assertThat(rising.get(rising.size() - 1).levelSetpointM()).isEqualTo(4.0);
        assertThat(rising.get(rising.size() - 1).levelM()).isCloseTo(4.0, within(0.1));
        assertThat(rising.get(10).valvePositionPercent()).as("the valve opens at once")
                .isGreaterThan(rising.get(0).valvePositionPercent());

        model.setLevelSetpoint(1.5);
        run(model, 3 * STEPS_PER_MINUTE);
        assertThat(model.state().levelM()).isCloseTo(1.5, within(0.1));
        assertThat(model.state().pumpRunning()).isTrue();
    }

    @Test
    void thePumpStopsBelowTheLowLevelAndStartsAgainOnlyAboveTheStartLevel() {
        PlantModel model = new PlantModel(5, TICK);
        run(model, STEPS_PER_MINUTE);
        assertThat(model.state().pumpRunning()).isTrue();

        model.setLevelSetpoint(0.2);
        PlantState stopped = stepUntil(model, s -> !s.pumpRunning(), 10 * STEPS_PER_MINUTE);
        assertThat(stopped.levelM()).isCloseTo(PlantModel.PUMP_STOP_LEVEL_M, within(0.03));
        assertThat(stopped.pumpEnabled()).as("stopped by level, not by the operator").isTrue();
        assertThat(stopped.outflowM3PerH()).isZero();

        // Between the stop and the start level the pump stays off, though the level is above the stop level.
        model.setLevelSetpoint(0.8);
        List<PlantState> between = run(model, 3 * STEPS_PER_MINUTE);
        assertThat(between).noneMatch(PlantState::pumpRunning);
        assertThat(between.get(between.size() - 1).levelM()).isCloseTo(0.8, within(0.05));
        assertThat(between.get(between.size() - 1).speedRpm()).isZero();
        assertThat(between.get(between.size() - 1).currentA()).isZero();

        model.setLevelSetpoint(2.0);
        PlantState started = stepUntil(model, PlantState::pumpRunning, 5 * STEPS_PER_MINUTE);
        assertThat(started.levelM()).isBetween(PlantModel.PUMP_START_LEVEL_M - 0.02, PlantModel.PUMP_START_LEVEL_M + 0.1);
        PlantState ramped = stepUntil(model, s -> s.speedRpm() >= s.speedSetpointRpm() - 10, STEPS_PER_MINUTE);
        assertThat(ramped.speedSetpointRpm()).isBetween(PlantModel.DEMAND_MIN_RPM, PlantModel.NOMINAL_SPEED_RPM);
    }

    @Test
    void disablingThePumpRampsTheMotorDownAndEnablingItRampsItUp() {
        PlantModel model = new PlantModel(8, TICK);
        PlantState atSpeed = stepUntil(model, s -> s.speedRpm() > 900, STEPS_PER_MINUTE);
        assertThat(atSpeed.currentA()).isGreaterThan(5);

        model.setPumpEnabled(false);
        PlantState next = model.step();
        assertThat(next.pumpEnabled()).isFalse();
        assertThat(next.pumpRunning()).isFalse();
        assertThat(next.speedSetpointRpm()).isZero();
        assertThat(next.speedRpm()).as("ramps, does not jump").isPositive();
        PlantState still = stepUntil(model, s -> s.speedRpm() == 0, 5 * 5);
        assertThat(still.currentA()).isZero();

        model.setPumpEnabled(true);
        List<PlantState> startUp = run(model, 5 * 5);
        assertThat(startUp.get(0).speedRpm()).isLessThan(200);
        assertThat(startUp.get(startUp.size() - 1).speedRpm()).isGreaterThan(900);
    }

    @Test
    void motorCurrentAndTemperatureFollowTheLoad() {
        PlantModel model = new PlantModel(11, TICK);
        List<PlantState> running = run(model, 20 * STEPS_PER_MINUTE);
        PlantState warm = running.get(running.size() - 1);
        assertThat(warm.currentA()).isBetween(5.0, 13.0);
        assertThat(warm.motorTemperatureC()).isGreaterThan(running.get(0).motorTemperatureC() + 5);

        model.setPumpEnabled(false);
        List<PlantState> cooling = run(model, 20 * STEPS_PER_MINUTE);
        assertThat(cooling.get(cooling.size() - 1).motorTemperatureC()).isLessThan(warm.motorTemperatureC() - 5);
        assertThat(cooling.get(cooling.size() - 1).currentA()).isZero();
    }

    @Test
    void theProductionCounterCountsOnlyWhileThePumpRuns() {
        PlantModel model = new PlantModel(13, TICK);
        List<PlantState> running = run(model, 2 * STEPS_PER_MINUTE);
        assertThat(running.get(running.size() - 1).productionCount()).isGreaterThan(running.get(0).productionCount());

        model.setPumpEnabled(false);
        model.step();
        long atStop = model.state().productionCount();
        assertThat(run(model, 2 * STEPS_PER_MINUTE)).allSatisfy(s -> assertThat(s.productionCount()).isEqualTo(atStop));

        model.setPumpEnabled(true);
        run(model, STEPS_PER_MINUTE);
        assertThat(model.state().productionCount()).isGreaterThan(atStop);
    }

    @Test
    void aLevelSetpointOutsideTheTankIsRefusedAndChangesNothing() {
        PlantModel model = new PlantModel(1, TICK);
        for (double invalid : new double[]{-0.1, 5.01, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> model.setLevelSetpoint(invalid)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("between 0 and 5.0 m");
        }
        assertThat(model.step().levelSetpointM()).isEqualTo(2.5);
        model.setLevelSetpoint(0);
        model.setLevelSetpoint(5);
        assertThat(model.step().levelSetpointM()).isEqualTo(5.0);
    }

    @Test
    void aTickOutsideOneMillisecondToTenSecondsIsRefused() {
        assertThatThrownBy(() -> new PlantModel(1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PlantModel(1, Duration.ofSeconds(11))).isInstanceOf(IllegalArgumentException.class);
    }
}
