package io.qubiq.core.disk;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where samples of a path's file system come from: the real file store, or a fake in tests. */
@FunctionalInterface
public interface SpaceSource {

    /**
     * @throws IOException the path's file store could not be read (the path is gone, say)
     */
    DiskSpace sample(Path path) throws IOException;

    /** The file store holding {@code path}, as the JDK reports it. */
    static SpaceSource fileStores() {
        return path -> {
            FileStore store = Files.getFileStore(path);
            return new DiskSpace(store.getUsableSpace(), store.getTotalSpace());
        };
    }
}
