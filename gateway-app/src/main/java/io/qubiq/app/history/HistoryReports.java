package io.qubiq.app.history;

import io.qubiq.console.HistoryAccess;
import io.qubiq.historian.HistorianStatus;
import io.qubiq.historian.query.Point;
import io.qubiq.historian.query.Series;
import io.qubiq.historian.wal.SuspensionCause;
import io.qubiq.historian.wal.WalTableStatus;

/** The historian's own records turned into the console's API records, field by field. */
final class HistoryReports {

    private HistoryReports() {
    }

    static HistoryAccess.Series series(Series s) {
        return new HistoryAccess.Series(s.tag(), s.points().stream().map(HistoryReports::point).toList());
    }

    private static HistoryAccess.Point point(Point p) {
        return new HistoryAccess.Point(p.ts(), p.value(), p.quality());
    }

    static HistoryAccess.WalTable table(WalTableStatus t) {
        return new HistoryAccess.WalTable(t.table(), t.present(), t.suspended(), t.writerTxn(), t.sequencerTxn(),
                t.errorTag(), t.errorMessage(), t.cause().map(SuspensionCause::name), t.autoResumes(),
                t.autoResumesTotal(), t.poisoned(), t.lagging(), t.lastPollAt());
    }

    static HistoryAccess.Status status(HistorianStatus s) {
        return new HistoryAccess.Status(s.valuesReceived(), s.samplesStored(), s.valuesFiltered(), s.rowsSubmitted(),
                s.rowsPending(), s.rowsRejected(), s.queueDropped(), s.liveTailTags(), s.liveTailRoom(),
                s.liveTailMaxRoom());
    }
}
