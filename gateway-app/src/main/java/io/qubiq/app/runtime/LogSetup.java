package io.qubiq.app.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import io.qubiq.app.config.LoggingConfig;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the {@code logging} section: the root level, and a rolling file {@code qubiq.log} in the
 * given directory (rolled daily and by size, gzip-compressed, with a total size cap), owner-only
 * ({@link OwnerOnlyLogFile}). Called once
 * the configuration is valid and the data directory is locked, so a refused start writes no file.
 */
public final class LogSetup {

    static final String FILE_APPENDER = "FILE";

    private LogSetup() {
    }

    public static void apply(LoggingConfig config, Path logDir) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return; // another SLF4J backend (tests); nothing to configure
        }
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(config.level().name(), Level.INFO));
        if (!config.fileEnabled() || root.getAppender(FILE_APPENDER) != null) {
            return;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger - %msg%n");
        encoder.start();

        RollingFileAppender<ILoggingEvent> appender = new OwnerOnlyLogFile();
        appender.setContext(context);
        appender.setName(FILE_APPENDER);
        appender.setFile(logDir.resolve("qubiq.log").toString());

        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(appender);
        policy.setFileNamePattern(logDir.resolve("qubiq-%d{yyyy-MM-dd}.%i.log.gz").toString());
        policy.setMaxFileSize(FileSize.valueOf(config.fileMaxSizeMb() + "MB"));
        policy.setMaxHistory(config.fileMaxHistoryDays());
        policy.setTotalSizeCap(FileSize.valueOf(config.fileTotalSizeCapMb() + "MB"));
        policy.start();

        appender.setRollingPolicy(policy);
        appender.setEncoder(encoder);
        appender.start();
        root.addAppender(appender);
    }
}
