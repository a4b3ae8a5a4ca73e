package io.qubiq.app.losses;

import io.qubiq.console.LossAccess;
import io.qubiq.losses.LedgerDamage;
import io.qubiq.losses.LossEntry;
import io.qubiq.losses.LossQuery;
import io.qubiq.losses.LossReport;
import java.util.List;

/** The console's view of the loss ledger: {@link LossAccess} over the {@link LossRecorder}. */
public final class LedgerLosses implements LossAccess {

    private final LossRecorder recorder;

    public LedgerLosses(LossRecorder recorder) {
        this.recorder = recorder;
    }

    @Override
    public Report query(Query query) {
        LossQuery ledgerQuery = new LossQuery(query.from(), query.to(), query.connection(), query.reason(),
                query.limit());
        return recorder.query(ledgerQuery).map(LedgerLosses::report)
                .orElse(new Report(List.of(), false, List.of(), 0, 0, new Damage(0, 0, 0), 0));
    }

    private static Report report(LossReport report) {
        LedgerDamage damage = report.damage();
        return new Report(report.entries().stream().map(LedgerLosses::entry).toList(), report.truncated(),
                report.totals().stream().map(LedgerLosses::total).toList(), report.totalItems(),
                report.totals().stream().mapToLong(io.qubiq.losses.DayTotal::bytes).sum(),
                new Damage(damage.records(), damage.bytes(), damage.files()), report.unrecorded());
    }

    private static Entry entry(LossEntry e) {
        return new Entry(e.minute(), e.firstAt(), e.lastAt(), e.component(), e.connection(), e.tag().orElse(null),
                e.reason().label(), e.reason().operatorAction(), e.items(), e.bytes(), e.firstSequence(),
                e.lastSequence(), e.who().orElse(null), e.reports(), e.detail());
    }

    private static DayTotal total(io.qubiq.losses.DayTotal t) {
        return new DayTotal(t.day(), t.items(), t.bytes(), t.entries());
    }
}
