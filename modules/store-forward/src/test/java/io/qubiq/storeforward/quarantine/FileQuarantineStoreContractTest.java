package io.qubiq.storeforward.quarantine;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileQuarantineStoreContractTest extends QuarantineStoreContract {

    @TempDir
    Path temp;
    private int stores;

    @Override
    protected QuarantineStore createStore(long maxBytes) throws Exception {
        return FileQuarantineStore.open(temp.resolve("q" + stores++), maxBytes);
    }
}
