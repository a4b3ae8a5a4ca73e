package io.qubiq.pipeline;

import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;

/**
 * Turns one event into one item of a connection's type (a QuestDB row, a SQL row, a MongoDB
 * document, an MQTT message), by evaluating the output's compiled expressions in the event's
 * scope. Implementations are immutable and called from the pipeline's event thread.
 *
 * @param <T> the item type of the connection's sink
 */
@FunctionalInterface
public interface ItemMapper<T> {

    /**
     * @param itemId unique for this event (the same for every output of the event), stored with the
     *               item so a replay carries the same id: idempotent destinations key on it
     * @throws ExpressionException when an expression fails or yields a value the item cannot hold
     */
    T map(Scope scope, String itemId) throws ExpressionException;
}
