/**
 * The historian: tag history into QuestDB through its own store-and-forward channel.
 *
 * <p><b>What it writes.</b> One row per stored sample into one of five WAL tables, one per value
 * type ({@link io.qubiq.historian.HistorySchema}), with {@code DEDUP UPSERT KEYS(ts, gateway, tag,
 * value, quality)}: a row replayed after a crash or an unknown-outcome write replaces itself, while
 * two samples of one tag at the same timestamp with different values are both kept. Which samples are stored is
 * decided by the storage rules ({@link io.qubiq.historian.StorageFilter}).
 *
 * <p><b>Errors.</b> QuestDB being unreachable is transient: the channel buffers and replays in
 * order. A row QuestDB rejects is permanent and goes to the channel's quarantine. A batch the
 * channel itself refuses (its buffer failed) is counted and logged as lost; the tag-bus consumer
 * keeps running. The sub-packages hold the history queries ({@code query}) and the WAL supervisor
 * ({@code wal}); SQL over {@code /exec} is {@code io.qubiq.questdb.exec} in modules/questdb-common.
 */
package io.qubiq.historian;
