/**
 * The MongoDB sink: writes {@link io.qubiq.sink.mongodb.MongoDocument}s (a collection, fields of
 * string, int32, int64, double, boolean, Decimal128, date, embedded document and array values, and
 * a write mode) to one MongoDB database with the sync driver, one unordered bulk write per
 * collection per batch: inserts keyed by the item id, or upserts replacing the document with the
 * same key fields.
 *
 * <p><b>Retriable</b> (transient): no server within the selection timeout, a refused, reset or
 * closed connection, and server errors saying the write was not applied (not primary, shutting
 * down). <b>Not retriable</b>: a document MongoDB rejects (a unique index, a validator) is permanent
 * for that document only, and the rest of the batch is written; a duplicate {@code _id} of the item's
 * own id is not an error but an earlier delivery of the same item. A socket read timeout after the
 * write was sent, or an unsatisfied write concern, is an unknown outcome; the sink is idempotent (every
 * write is keyed), so the channel replays it safely. Refused credentials are a configuration error.
 * See {@code docs/sinks/mongodb.md}.
 */
package io.qubiq.sink.mongodb;
