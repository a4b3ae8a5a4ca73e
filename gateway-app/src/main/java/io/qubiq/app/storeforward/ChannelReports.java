package io.qubiq.app.storeforward;

import io.qubiq.console.StoreForwardAccess;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.Quarantine;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.storeforward.quarantine.QuarantinePage;

/** Store-and-forward's own records turned into the console's API records, field by field. */
final class ChannelReports {

    private ChannelReports() {
    }

    static StoreForwardAccess.Channel channel(ChannelStatus s) {
        return new StoreForwardAccess.Channel(s.connection(), s.state().name(), s.destination(), s.bufferedBytes(),
                s.bufferedItems(), s.maxBytes(), s.fillPercent(), s.highWaterPercent(), s.lowWaterPercent(),
                s.oldestItemAge(), s.inBytesPerSecond(), s.outBytesPerSecond(), s.itemsIn(), s.itemsDelivered(),
                s.itemsDropped(), s.itemsRefused(), s.itemsQuarantined(), s.deliveryAttempts(), s.quarantineItems(),
                s.quarantineBytes(), s.pressureAlarm(), s.refusing(), s.lastError(), s.lastErrorAt(),
                s.overflowPolicy());
    }

    static StoreForwardAccess.QuarantineItem item(QuarantineEntry e) {
        return new StoreForwardAccess.QuarantineItem(e.id(), e.failureClass(), e.reason(), e.error(), e.attempts(),
                e.firstFailure(), e.lastFailure(), e.itemBytes(), e.previousIds());
    }

    static StoreForwardAccess.QuarantinePage page(QuarantinePage page) {
        return new StoreForwardAccess.QuarantinePage(page.entries().stream().map(ChannelReports::item).toList(),
                page.offset(), page.total());
    }

    static StoreForwardAccess.QuarantinePreview preview(Quarantine.Preview preview) {
        return new StoreForwardAccess.QuarantinePreview(item(preview.entry()), preview.preview(), preview.itemBytes());
    }
}
