package io.qubiq.core.tag;

import java.util.Map;

/**
 * The quality of a tag value as a 32-bit status code in OPC UA's layout, so OPC UA qualities pass
 * through unchanged and every other source maps onto the same vocabulary. The top two bits give the
 * {@link Severity}; the named constants are the codes the gateway itself produces.
 */
public record Quality(int code) {

    public enum Severity { GOOD, UNCERTAIN, BAD }

    public static final Quality GOOD = new Quality(0x00000000);
    public static final Quality GOOD_LOCAL_OVERRIDE = new Quality(0x00960000);
    public static final Quality UNCERTAIN = new Quality(0x40000000);
    /** A value that stopped changing while its source still called it good: the gateway's "stale". */
    public static final Quality UNCERTAIN_LAST_USABLE_VALUE = new Quality(0x40900000);
    public static final Quality UNCERTAIN_NO_COMMUNICATION_LAST_USABLE_VALUE = new Quality(0x408F0000);
    public static final Quality UNCERTAIN_SENSOR_NOT_ACCURATE = new Quality(0x40930000);
    public static final Quality BAD = new Quality(0x80000000);
    public static final Quality BAD_COMMUNICATION_ERROR = new Quality(0x80050000);
    public static final Quality BAD_TIMEOUT = new Quality(0x800A0000);
    public static final Quality BAD_NO_COMMUNICATION = new Quality(0x80310000);
    public static final Quality BAD_WAITING_FOR_INITIAL_DATA = new Quality(0x80320000);
    public static final Quality BAD_TYPE_MISMATCH = new Quality(0x80740000);
    public static final Quality BAD_CONFIGURATION_ERROR = new Quality(0x80890000);
    public static final Quality BAD_NOT_CONNECTED = new Quality(0x808A0000);
    public static final Quality BAD_DEVICE_FAILURE = new Quality(0x808B0000);
    public static final Quality BAD_SENSOR_FAILURE = new Quality(0x808C0000);
    public static final Quality BAD_OUT_OF_SERVICE = new Quality(0x808D0000);

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(GOOD.code, "Good"),
            Map.entry(GOOD_LOCAL_OVERRIDE.code, "GoodLocalOverride"),
            Map.entry(UNCERTAIN.code, "Uncertain"),
            Map.entry(UNCERTAIN_LAST_USABLE_VALUE.code, "UncertainLastUsableValue"),
            Map.entry(UNCERTAIN_NO_COMMUNICATION_LAST_USABLE_VALUE.code, "UncertainNoCommunicationLastUsableValue"),
            Map.entry(UNCERTAIN_SENSOR_NOT_ACCURATE.code, "UncertainSensorNotAccurate"),
            Map.entry(BAD.code, "Bad"),
            Map.entry(BAD_COMMUNICATION_ERROR.code, "BadCommunicationError"),
            Map.entry(BAD_TIMEOUT.code, "BadTimeout"),
            Map.entry(BAD_NO_COMMUNICATION.code, "BadNoCommunication"),
            Map.entry(BAD_WAITING_FOR_INITIAL_DATA.code, "BadWaitingForInitialData"),
            Map.entry(BAD_TYPE_MISMATCH.code, "BadTypeMismatch"),
            Map.entry(BAD_CONFIGURATION_ERROR.code, "BadConfigurationError"),
            Map.entry(BAD_NOT_CONNECTED.code, "BadNotConnected"),
            Map.entry(BAD_DEVICE_FAILURE.code, "BadDeviceFailure"),
            Map.entry(BAD_SENSOR_FAILURE.code, "BadSensorFailure"),
            Map.entry(BAD_OUT_OF_SERVICE.code, "BadOutOfService"));

    public Severity severity() {
        return switch (code >>> 30) {
            case 0 -> Severity.GOOD;
            case 1 -> Severity.UNCERTAIN;
            default -> Severity.BAD;
        };
    }

    public boolean isGood() {
        return severity() == Severity.GOOD;
    }

    public boolean isBad() {
        return severity() == Severity.BAD;
    }

    /** The OPC UA symbolic name for codes the gateway knows, otherwise severity plus hex code. */
    public String label() {
        String name = NAMES.get(code);
        if (name != null) {
            return name;
        }
        String severity = switch (severity()) {
            case GOOD -> "Good";
            case UNCERTAIN -> "Uncertain";
            case BAD -> "Bad";
        };
        return severity + String.format("(0x%08X)", code);
    }

    @Override
    public String toString() {
        return label();
    }
}
