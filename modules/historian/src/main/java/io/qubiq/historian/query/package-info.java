/**
 * History queries: raw samples and per-interval aggregates of several tags over a time range, from
 * QuestDB merged with the live tail, bounded in size. {@link io.qubiq.historian.query.HistoryRequest#parse}
 * reads the console's {@code GET /api/v1/history} parameters.
 */
package io.qubiq.historian.query;
