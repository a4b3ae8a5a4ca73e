package io.qubiq.storeforward;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;

/**
 * A destination for crash tests: a text file that gets one line per item. A write appends the
 * whole batch with one {@code write} and returns only after {@code FileChannel.force(true)}: when
 * it returns, the batch is flushed. While {@link #down} it fails with a transient error and writes
 * nothing. Opening it discards a trailing partial line, as a database discards a transaction that
 * was cut off by a crash.
 *
 * <p>Threading: one writer at a time (the channel guarantees it); {@link #down} from any thread.
 */
final class FileDestinationSink implements Sink<String> {

    private final FileChannel file;
    private volatile boolean down;

    FileDestinationSink(Path path) {
        try {
            file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            file.truncate(completeLinesLength(file));
            file.position(file.size());
            file.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Length of the prefix of the file that ends with a newline. */
    static long completeLinesLength(FileChannel file) throws IOException {
        long size = file.size();
        ByteBuffer one = ByteBuffer.allocate(1);
        for (long position = size - 1; position >= 0; position--) {
            one.clear();
            file.read(one, position);
            if (one.get(0) == '\n') {
                return position + 1;
            }
        }
        return 0;
    }

    void down(boolean value) {
        down = value;
    }

    @Override
    public String id() {
        return "file-destination";
    }

    @Override
    public void write(List<String> batch) throws GatewayException {
        if (down) {
            throw new TransientException("destination down (scripted outage)");
        }
        StringBuilder lines = new StringBuilder();
        for (String item : batch) {
            lines.append(item).append('\n');
        }
        ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
        try {
            while (bytes.hasRemaining()) {
                file.write(bytes);
            }
            file.force(true);
        } catch (IOException e) {
            throw new TransientException("destination file: " + e.getMessage(), e);
        }
    }

    @Override
    public ConnectionStatus probe() {
        return down ? ConnectionStatus.down(Instant.now(), "down") : ConnectionStatus.up(Instant.now());
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
