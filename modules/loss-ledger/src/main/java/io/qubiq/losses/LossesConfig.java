package io.qubiq.losses;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;

@Doc("The loss ledger: the durable record of every loss of data, in <data-dir>/losses/. See docs/data-integrity.md.")
public record LossesConfig(
        @Doc("Bytes the ledger's day files may occupy together; past it, whole oldest days are deleted. Losses are"
                + " summed per source, reason and minute and written at most once a second, so a loss storm writes"
                + " a bounded number of records (about 150 bytes each).")
        @Default("16777216")
        @Range(min = 65536, max = 1099511627776L)
        long maxBytes) {

    public static LossesConfig defaults() {
        return new LossesConfig(LossLedger.DEFAULT_MAX_BYTES);
    }
}
