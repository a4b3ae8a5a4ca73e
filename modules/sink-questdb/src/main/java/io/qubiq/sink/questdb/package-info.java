/**
 * The QuestDB sink: writes {@link io.qubiq.sink.questdb.QuestDbRow}s (a table, a designated
 * timestamp, symbols and boolean, long, double, string and timestamp columns) to QuestDB over
 * ILP/HTTP, one request per batch, returning only after QuestDB accepted it. QuestDB creates
 * missing tables and columns itself.
 *
 * <p><b>Retriable</b> (transient): connection refused, reset or unresolvable host, HTTP 5xx, 408 and
 * 429. <b>Not retriable</b>: a row QuestDB cannot take (HTTP 400: type or schema error, bad line) is
 * permanent and named by its line where QuestDB reports it, else the channel bisects; bad
 * credentials, a non-ILP endpoint or a TLS handshake failure are configuration errors. A timeout
 * after the request was sent is an unknown outcome (it may have committed); declare
 * {@code idempotent: true} only when the tables have DEDUP UPSERT KEYS. The client's own retries
 * are off: the store-and-forward channel retries. See {@code docs/sinks/questdb.md}.
 */
package io.qubiq.sink.questdb;
