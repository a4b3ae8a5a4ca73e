package io.qubiq.audit;

import io.qubiq.storeforward.StoreForwardChannel;
import java.util.function.Function;

/**
 * Where {@code audit.forward_to} sends a copy of each journal entry: an outbound connection's channel,
 * and how an entry becomes one of that connection's items. The application builds it, since only it
 * knows the connection kinds and their item types.
 *
 * @param channel the forward connection's store-and-forward channel
 * @param rowOf   one entry as one of the channel's items
 * @param <R>     the connection's item type
 */
public record AuditForwarding<R>(StoreForwardChannel<R> channel, Function<JournalEntry, R> rowOf) {
}
