package io.qubiq.losses;

/**
 * Damage the ledger found in its own files when it opened: records that failed their checks and were
 * skipped, and files that could not be read at all (set aside in {@code corrupt/}). The losses those
 * records described are not in any answer.
 *
 * @param records damaged places skipped (a run of bad bytes counts once)
 * @param bytes bytes that belonged to no valid record
 * @param files day files set aside whole because their header was not readable
 */
public record LedgerDamage(long records, long bytes, long files) {

    public static final LedgerDamage NONE = new LedgerDamage(0, 0, 0);

    public boolean any() {
        return records > 0 || files > 0;
    }

    LedgerDamage plus(LedgerScan scan) {
        return new LedgerDamage(records + scan.damagedRecords(), bytes + scan.damagedBytes(),
                files + (scan.headerValid() ? 0 : 1));
    }
}
