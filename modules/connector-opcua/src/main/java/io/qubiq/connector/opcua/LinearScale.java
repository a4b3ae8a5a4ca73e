package io.qubiq.connector.opcua;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Doc;
import java.util.ArrayList;
import java.util.List;

/**
 * Linear scaling from the device's raw range to engineering units: {@code raw_low} maps to
 * {@code eng_low} and {@code raw_high} to {@code eng_high}; values outside the range extrapolate.
 * Immutable.
 */
@Doc("Linear scaling of a numeric tag from raw device units to engineering units.")
public record LinearScale(
        @Doc("Raw value that maps to eng_low.")
        double rawLow,

        @Doc("Raw value that maps to eng_high.")
        double rawHigh,

        @Doc("Engineering value at raw_low.")
        double engLow,

        @Doc("Engineering value at raw_high.")
        double engHigh) implements ConfigChecked {

    /** The engineering value of a raw device value. */
    public double toEngineering(double raw) {
        return engLow + (raw - rawLow) * (engHigh - engLow) / (rawHigh - rawLow);
    }

    /** The raw device value of an engineering value: the inverse, used for writes. */
    public double toRaw(double engineering) {
        return rawLow + (engineering - engLow) * (rawHigh - rawLow) / (engHigh - engLow);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (rawLow == rawHigh) {
            violations.add(new Violation("raw_high", "must differ from raw_low (" + rawLow + ")"));
        }
        if (engLow == engHigh) {
            violations.add(new Violation("eng_high", "must differ from eng_low (" + engLow + ")"));
        }
        return violations;
    }
}
