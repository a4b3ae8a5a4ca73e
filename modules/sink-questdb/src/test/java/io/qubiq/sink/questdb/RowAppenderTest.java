package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qubiq.core.error.PermanentException;
import io.questdb.client.Sender;
import io.questdb.client.std.bytes.DirectByteSlice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RowAppender#appendEncoded} is the forwarder's only reading of a buffered row: it must
 * refuse exactly the bytes {@link QuestDbRowCodec#decode} refuses, leave the client's request as it
 * was when it does, and otherwise append exactly what {@link RowAppender#append} of the decoded
 * row appends, wherever the row starts in the array it is given. The client's request is compared byte for byte (nothing is sent: an HTTP sender
 * connects on its first flush).
 */
class RowAppenderTest {

    /** The length of the channel's envelope header, which precedes each row the forwarder hands over. */
    private static final int HEADER = 11;

    private final QuestDbRowCodec codec = new QuestDbRowCodec();
    private final Sender sender =
            Sender.fromConfig("http::addr=127.0.0.1:9;auto_flush=off;protocol_version=2;retry_timeout=0;");

    @AfterEach
    void closeSender() {
        sender.reset();
        sender.close();
    }

    private static List<QuestDbRow> rows() {
        return List.of(QuestDbRowCodecTest.everyColumnType(),
                QuestDbRow.builder("t", QuestDbRow.LATEST).column("max", Long.MAX_VALUE).column("far", Instant.MIN)
                        .column("nan", Double.NaN).column("off", false).build(),
                QuestDbRow.builder("samples", Instant.parse("2026-01-01T00:00:00Z")).symbol("tag", "a/b")
                        .column("value", 1.5).column("quality", 0L).column("source_ts", Instant.EPOCH).build());
    }

    @Test
    void refusesExactlyWhatDecodeRefusesAndOtherwiseAppendsWhatTheDecodedRowAppends() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        RowAppender fromBytes = new RowAppender(TimestampPrecision.NANOS);
        RowAppender fromRows = new RowAppender(TimestampPrecision.NANOS);
        int refused = 0;
        int appended = 0;
        for (QuestDbRow row : rows()) {
            byte[] bytes = codec.encode(row);
            List<byte[]> variants = new ArrayList<>(List.of(bytes));
            for (int length = 0; length < bytes.length; length++) {
                variants.add(Arrays.copyOf(bytes, length));
            }
            for (int at = 0; at < bytes.length; at++) {
                for (int k = 0; k < 8; k++) {
                    byte[] changed = bytes.clone();
                    changed[at] = k < 4 ? (byte) (changed[at] ^ (1 << random.nextInt(8))) : (byte) random.nextInt(256);
                    variants.add(changed);
                }
            }
            for (byte[] variant : variants) {
                String what = "seed " + seed + ", bytes " + HexFormat.of().formatHex(variant);
                QuestDbRow decoded;
                try {
                    decoded = codec.decode(variant);
                } catch (PermanentException e) {
                    PermanentException alone = catchThrowableOfType(
                            () -> fromBytes.appendEncoded(sender, variant, 0), PermanentException.class);
                    assertThat(alone).as(what).isNotNull();
                    // behind the header the same message: positions count from the row's start
                    assertThatThrownBy(() -> fromBytes.appendEncoded(sender, behindAHeader(variant), HEADER))
                            .as(what).isInstanceOf(PermanentException.class).hasMessage(alone.getMessage());
                    assertThat(sender.bufferView().size()).as(what).isZero();
                    refused++;
                    continue;
                }
                RuntimeException clientRefused = null;
                try {
                    fromBytes.appendEncoded(sender, variant, 0);
                    fromBytes.appendEncoded(sender, behindAHeader(variant), HEADER);
                } catch (RuntimeException e) {
                    clientRefused = e; // a value the client cannot write (Instant.MIN in nanoseconds)
                }
                byte[] written = request(sender);
                sender.reset();
                if (clientRefused != null) {
                    assertThatThrownBy(() -> fromRows.append(sender, decoded)).as(what)
                            .isInstanceOf(clientRefused.getClass());
                    sender.reset();
                    continue;
                }
                fromRows.append(sender, decoded);
                fromRows.append(sender, decoded);
                assertThat(written).as(what).isEqualTo(request(sender));
                sender.reset();
                appended++;
            }
        }
        assertThat(refused).isGreaterThan(500);
        assertThat(appended).isGreaterThan(100);
    }

    @Test
    void aRowThatDoesNotDecodeLeavesTheRowsBeforeItInTheRequestAsTheyWere() throws Exception {
        RowAppender appender = new RowAppender(TimestampPrecision.MICROS);
        byte[] good = codec.encode(rows().get(2));
        appender.appendEncoded(sender, good, 0);
        byte[] before = request(sender);
        byte[] truncated = Arrays.copyOf(good, good.length - 3);

        assertThatThrownBy(() -> appender.appendEncoded(sender, truncated, 0)).isInstanceOf(PermanentException.class)
                .hasMessageContaining("undecodable QuestDB row");

        assertThat(request(sender)).isEqualTo(before);
        appender.appendEncoded(sender, good, 0);
        assertThat(request(sender).length).isEqualTo(2 * before.length);
    }

    @Test
    void aMicrosecondAppenderWritesTheSameFromBytesAsFromRowsForEveryWidth() throws Exception {
        RowAppender fromBytes = new RowAppender(TimestampPrecision.MICROS);
        RowAppender fromRows = new RowAppender(TimestampPrecision.MICROS);
        // widths around the appender's scratch size, so that it grows between rows of different layouts
        for (int width : new int[] {1, 15, 16, 17, 40, 3}) {
            QuestDbRow.Builder builder = QuestDbRow.builder("wide", Instant.parse("2026-01-01T00:00:00.123456Z"))
                    .symbol("tag", "w" + width);
            for (int c = 0; c < width; c++) {
                switch (c % 4) {
                    case 0 -> builder.column("d" + c, c * 0.5);
                    case 1 -> builder.column("l" + c, (long) -c);
                    case 2 -> builder.column("s" + c, "text " + c);
                    default -> builder.column("t" + c, Instant.ofEpochSecond(c, c * 1000L));
                }
            }
            QuestDbRow row = builder.build();
            fromBytes.appendEncoded(sender, codec.encode(row), 0);
            byte[] written = request(sender);
            sender.reset();
            fromRows.append(sender, row);
            assertThat(written).as("width %d", width).isEqualTo(request(sender));
            sender.reset();
        }
    }

    /** {@code row} after {@link #HEADER} bytes of something else, as the forwarder hands rows over. */
    private static byte[] behindAHeader(byte[] row) {
        byte[] bytes = new byte[HEADER + row.length];
        Arrays.fill(bytes, 0, HEADER, (byte) 'Q');
        System.arraycopy(row, 0, bytes, HEADER, row.length);
        return bytes;
    }

    private static byte[] request(Sender sender) {
        DirectByteSlice view = sender.bufferView();
        byte[] bytes = new byte[view.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = view.byteAt(i);
        }
        return bytes;
    }
}
