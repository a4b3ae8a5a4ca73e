package io.qubiq.storeforward.quarantine;

class MemoryQuarantineStoreContractTest extends QuarantineStoreContract {

    @Override
    protected QuarantineStore createStore(long maxBytes) {
        return new MemoryQuarantineStore("contract", maxBytes);
    }
}
