package io.qubiq.losses;

import java.util.List;

/**
 * The answer to a {@link LossQuery}.
 *
 * @param entries the matching entries, newest first, at most the query's limit
 * @param truncated true when more entries matched than were returned
 * @param totals what every matching entry adds up to, per UTC day, newest day first
 * @param damage damage the ledger found in its own files when it opened
 * @param unrecorded loss reports the ledger could not store (its size bound was reached by the
 *     current day alone, or a write failed); they were logged, counted in the metrics and alarmed
 */
public record LossReport(List<LossEntry> entries, boolean truncated, List<DayTotal> totals, LedgerDamage damage,
                         long unrecorded) {

    /** Items lost over every matching entry. */
    public long totalItems() {
        return totals.stream().mapToLong(DayTotal::items).sum();
    }
}
