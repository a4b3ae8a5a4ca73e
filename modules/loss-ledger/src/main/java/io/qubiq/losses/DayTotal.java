package io.qubiq.losses;

import java.time.LocalDate;

/**
 * What was lost on one UTC day, over the entries a query matched.
 *
 * @param entries how many ledger entries (source, reason and minute) the day has
 */
public record DayTotal(LocalDate day, long items, long bytes, long entries) {

    DayTotal plus(LossEntry entry) {
        return new DayTotal(day, items + entry.items(), bytes + entry.bytes(), entries + 1);
    }
}
