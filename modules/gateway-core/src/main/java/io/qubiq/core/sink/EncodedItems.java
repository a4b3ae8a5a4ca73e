package io.qubiq.core.sink;

import java.util.List;

/**
 * A batch of encoded items, each the tail of a byte array: item {@code i} is {@code array(i)} from
 * {@code offset(i)} to the array's end. Whoever holds the items decides where each one starts (the
 * store-and-forward forwarder hands over its buffered records, each item after its own header,
 * without copying it out); a sink only reads the slices. Indexes are positions in the batch, as in
 * {@link io.qubiq.core.error.PermanentException.RejectedItem}.
 *
 * <p>A view: the arrays are not copied and must not be changed while a write runs. Threading as the
 * sink's write.
 */
public interface EncodedItems {

    int size();

    /** The array holding item {@code index}. */
    byte[] array(int index);

    /** Where item {@code index} starts in {@link #array}; it runs to the end of the array. */
    int offset(int index);

    default boolean isEmpty() {
        return size() == 0;
    }

    /** Items that are whole arrays. */
    static EncodedItems of(List<byte[]> whole) {
        return new EncodedItems() {
            @Override
            public int size() {
                return whole.size();
            }

            @Override
            public byte[] array(int index) {
                return whole.get(index);
            }

            @Override
            public int offset(int index) {
                return 0;
            }
        };
    }
}
