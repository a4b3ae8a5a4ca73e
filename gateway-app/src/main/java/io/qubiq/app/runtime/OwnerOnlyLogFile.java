package io.qubiq.app.runtime;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import io.qubiq.fileops.OwnerOnly;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The rolling {@code qubiq.log} appender, with files only the gateway's user can read: the log holds the
 * one-time setup token and the names of users and connections. Logback opens the file with a plain
 * {@code FileOutputStream} (the process umask decides, usually 0644), at start and after every rollover;
 * this creates it {@code 0600} first, and tightens the rolled files ({@code qubiq-*.log.gz}, written by
 * logback's compressor in the background) found beside it. The logs folder itself is {@code 0700}.
 *
 * <p>Threading: {@link #openFile} is called by logback under its own lock.
 */
final class OwnerOnlyLogFile extends RollingFileAppender<ILoggingEvent> {

    @Override
    public void openFile(String fileName) throws IOException {
        Path file = Path.of(fileName);
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            OwnerOnly.createDirectories(dir);
            OwnerOnly.createFile(file);
            OwnerOnly.tighten(file);
            tightenRolled(dir);
        }
        super.openFile(fileName);
    }

    private static void tightenRolled(Path dir) {
        try (DirectoryStream<Path> rolled = Files.newDirectoryStream(dir, "qubiq-*.log*")) {
            for (Path file : rolled) {
                OwnerOnly.tighten(file);
            }
        } catch (IOException e) {
            // a file being compressed or deleted right now; the next rollover looks again
        }
    }
}
