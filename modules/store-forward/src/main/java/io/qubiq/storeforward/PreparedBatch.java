package io.qubiq.storeforward;

import io.qubiq.buffer.BufferedRecord;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.core.sink.ItemCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A batch of buffered records as the forwarder delivers it: each record unwrapped from its
 * {@link ItemEnvelope} and decoded by the sink's codec, or marked as what it is when that failed.
 * Preparing has no side effects (nothing is quarantined or acknowledged here), so a batch may be
 * prepared ahead of time and thrown away unused; {@link DeliveryAttempt} applies the rules.
 *
 * @param <T> the sink's item type
 */
record PreparedBatch<T>(List<Entry<T>> entries) {

    /** One record of the batch. */
    sealed interface Entry<T> {
        BufferedRecord record();

        default long sequence() {
            return record().sequence();
        }
    }

    /**
     * An envelope whose item the codec decoded (or, for a sink with {@link EncodedWrites}, not yet:
     * then {@code value} is null and the sink reads and checks the envelope's item bytes as it
     * writes them): ready to be written.
     */
    record Decoded<T>(BufferedRecord record, ItemEnvelope envelope, T value) implements Entry<T> {
    }

    /** A record that is not a channel envelope (unknown format). */
    record NotAnEnvelope<T>(BufferedRecord record) implements Entry<T> {
    }

    /** An envelope whose item the codec refused. */
    record Undecodable<T>(BufferedRecord record, ItemEnvelope envelope, String error) implements Entry<T> {
    }

    /**
     * An envelope whose item crashed the codec with an unclassified exception or an {@link Error} that
     * is not the JVM's own (a codec bug, not a refusal; see {@link DeliveryPolicy#jvmFailure}): it
     * counts as a delivery attempt and is quarantined at the attempt cap.
     */
    record CodecFailed<T>(BufferedRecord record, ItemEnvelope envelope, Throwable error) implements Entry<T> {
    }

    static <T> PreparedBatch<T> empty() {
        return new PreparedBatch<>(List.of());
    }

    /**
     * Unwraps and decodes {@code records}, in order; with {@code encoded} the items are only
     * unwrapped, for a sink that writes them as bytes (and refuses one that does not decode). Safe
     * on any thread if the codec is.
     */
    static <T> PreparedBatch<T> prepare(List<BufferedRecord> records, ItemCodec<T> codec, boolean encoded) {
        List<Entry<T>> entries = new ArrayList<>(records.size());
        for (BufferedRecord record : records) {
            Optional<ItemEnvelope> envelope = ItemEnvelope.decode(record.payload());
            if (envelope.isEmpty()) {
                entries.add(new NotAnEnvelope<>(record));
                continue;
            }
            if (encoded) {
                entries.add(new Decoded<>(record, envelope.get(), null));
                continue;
            }
            try {
                entries.add(new Decoded<>(record, envelope.get(), codec.decode(envelope.get().item())));
            } catch (PermanentException e) {
                entries.add(new Undecodable<>(record, envelope.get(), e.getMessage()));
            } catch (RuntimeException e) {
                entries.add(new CodecFailed<>(record, envelope.get(), e));
            } catch (Error e) {
                if (DeliveryPolicy.jvmFailure(e)) {
                    throw e;
                }
                entries.add(new CodecFailed<>(record, envelope.get(), e));
            }
        }
        return new PreparedBatch<>(entries);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    int size() {
        return entries.size();
    }

    long firstSequence() {
        return entries.get(0).sequence();
    }

    long lastSequence() {
        return entries.get(entries.size() - 1).sequence();
    }

    long firstAppendTimeMillis() {
        return entries.get(0).record().appendTimeMillis();
    }
}
