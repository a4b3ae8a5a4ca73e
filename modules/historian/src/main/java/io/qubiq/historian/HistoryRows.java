package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import io.qubiq.sink.questdb.QuestDbRow;
import java.util.List;
import java.util.Objects;

/**
 * How one gateway's samples become rows of the {@link HistorySchema} tables: symbols
 * {@code gateway} (this gateway's identity, from {@code gateway.id}, else {@code gateway.name}) and
 * {@code tag}, columns {@code value} (absent for a sample without a value), {@code quality},
 * {@code source_ts} and {@code server_ts}, under the designated timestamp {@code ts}. The identity is
 * part of the tables' dedup keys, so gateways that write into one QuestDB keep each other's samples.
 *
 * <p>Immutable; row layouts are made (and their names validated) once, not per row.
 */
public final class HistoryRows {

    private static final List<String> SYMBOLS = List.of("gateway", "tag");
    private static final List<String> COLUMNS = List.of("value", "quality", "source_ts", "server_ts");
    private static final List<String> COLUMNS_WITHOUT_VALUE = COLUMNS.subList(1, COLUMNS.size());

    private final String gateway;
    /** Row layouts by {@link DataType} ordinal. */
    private final QuestDbRow.Layout[] withValue = new QuestDbRow.Layout[DataType.values().length];
    private final QuestDbRow.Layout[] withoutValue = new QuestDbRow.Layout[DataType.values().length];

    /** @param gateway the identity written to every row's {@code gateway} column; not blank */
    public HistoryRows(HistorySchema schema, String gateway) {
        Objects.requireNonNull(gateway, "gateway");
        if (gateway.isBlank()) {
            throw new IllegalArgumentException("the gateway identity of history rows must not be blank");
        }
        this.gateway = gateway;
        for (DataType type : DataType.values()) {
            String table = schema.tableFor(type);
            withValue[type.ordinal()] = QuestDbRow.Layout.of(table, SYMBOLS, COLUMNS);
            withoutValue[type.ordinal()] = QuestDbRow.Layout.of(table, SYMBOLS, COLUMNS_WITHOUT_VALUE);
        }
    }

    public String gateway() {
        return gateway;
    }

    /** The row that stores {@code sample}. */
    public QuestDbRow row(HistorySample sample) {
        int type = sample.type().ordinal();
        Long quality = Integer.toUnsignedLong(sample.quality().code());
        if (sample.value() != null) {
            return withValue[type].rowOwning(sample.ts(), new Object[] {gateway, sample.tag().value(), sample.value(),
                    quality, sample.sourceTs(), sample.serverTs()});
        }
        return withoutValue[type].rowOwning(sample.ts(),
                new Object[] {gateway, sample.tag().value(), quality, sample.sourceTs(), sample.serverTs()});
    }
}
