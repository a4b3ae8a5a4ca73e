package io.qubiq.app.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;

@Doc("Log output: the console and a rolling file in <data-dir>/logs/qubiq.log.")
public record LoggingConfig(
        @Doc("The least severe level written: error, warn, info, debug or trace. ERROR always means data"
                + " loss or an operator must act.")
        @Default("info")
        LogLevel level,

        @Doc("Write the rolling log file in <data-dir>/logs/.")
        @Default("true")
        boolean fileEnabled,

        @Doc("Size at which the log file rolls over to a new one.")
        @Default("50")
        @Range(min = 1, max = 10240)
        int fileMaxSizeMb,

        @Doc("Days of rolled log files kept.")
        @Default("14")
        @Range(min = 1, max = 3650)
        int fileMaxHistoryDays,

        @Doc("Upper bound on the total size of all log files; the oldest are deleted first.")
        @Default("1024")
        @Range(min = 1, max = 1048576)
        int fileTotalSizeCapMb) {

    public enum LogLevel { ERROR, WARN, INFO, DEBUG, TRACE }
}
