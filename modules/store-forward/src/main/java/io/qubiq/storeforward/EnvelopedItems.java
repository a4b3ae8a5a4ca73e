package io.qubiq.storeforward;

import io.qubiq.core.sink.EncodedItems;
import java.util.List;

/**
 * A run of decoded buffer records as the {@link EncodedItems} an {@link
 * io.qubiq.core.sink.EncodedWrites} sink reads: each item is its record's payload after the
 * envelope's header, where {@link ItemEnvelope#itemOffset} says. Nothing is copied; the envelope's
 * layout stays in this package.
 */
final class EnvelopedItems<T> implements EncodedItems {

    private final List<PreparedBatch.Decoded<T>> run;

    EnvelopedItems(List<PreparedBatch.Decoded<T>> run) {
        this.run = run;
    }

    @Override
    public int size() {
        return run.size();
    }

    @Override
    public byte[] array(int index) {
        return run.get(index).envelope().bytes();
    }

    @Override
    public int offset(int index) {
        return run.get(index).envelope().itemOffset();
    }
}
