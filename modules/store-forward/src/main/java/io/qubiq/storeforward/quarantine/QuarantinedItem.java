package io.qubiq.storeforward.quarantine;

/** An entry with the item's bytes as the sink's codec encoded them. */
public record QuarantinedItem(QuarantineEntry entry, byte[] item) {
}
