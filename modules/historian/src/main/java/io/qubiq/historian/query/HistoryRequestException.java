package io.qubiq.historian.query;

/** A history request parameter is missing or malformed; {@link #parameter()} names it. */
public final class HistoryRequestException extends IllegalArgumentException {

    private final String parameter;

    public HistoryRequestException(String parameter, String message) {
        super(parameter + ": " + message);
        this.parameter = parameter;
    }

    public String parameter() {
        return parameter;
    }
}
