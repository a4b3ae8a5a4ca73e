package io.qubiq.storeforward.quarantine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Fsyncs a directory, so that a file created, renamed into or deleted from it stays that way after
 * a power loss. Without it a rename can be durable in the file's data but not in the directory.
 *
 * <p><b>Threading.</b> Stateless.
 */
final class DirectorySync {

    private DirectorySync() {
    }

    static void force(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
