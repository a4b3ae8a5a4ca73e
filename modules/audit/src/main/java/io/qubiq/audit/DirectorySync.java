package io.qubiq.audit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Fsyncs a directory so a create, rename or delete in it survives power loss. */
final class DirectorySync {

    private DirectorySync() {
    }

    static void force(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
