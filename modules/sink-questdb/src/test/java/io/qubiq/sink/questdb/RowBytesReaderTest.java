package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RowBytesReaderTest {

    private static final BytesCache<String> NO_CACHE = new BytesCache<>(1, 0);

    /** Every power of two and its neighbours, both signs, and a seeded sample of random longs. */
    private static List<Long> interestingLongs() {
        List<Long> values = new ArrayList<>(List.of(0L, 1L, 127L, 128L, Long.MAX_VALUE, Long.MIN_VALUE, -1L));
        for (int bit = 0; bit < 64; bit++) {
            long p = 1L << bit;
            values.addAll(List.of(p - 1, p, p + 1, -p, -p - 1));
        }
        Random random = new Random(42);
        for (int i = 0; i < 2000; i++) {
            values.add(random.nextLong() >>> random.nextInt(64));
        }
        return values;
    }

    @Test
    void varintsReadBackWhateverTheirLengthAndHowManyBytesFollowThem() {
        for (long value : interestingLongs()) {
            RowBytesWriter out = new RowBytesWriter();
            out.writeVarLong(value);
            byte[] encoded = out.toByteArray();
            // trailing bytes from none (the byte-by-byte path) to more than a word (the 8-byte load),
            // with the continuation bit set or clear, so that a read past the varint would show
            for (byte fill : new byte[] {(byte) 0xFF, 0x00, 0x7F}) {
                for (int trailing = 0; trailing <= 12; trailing++) {
                    byte[] bytes = Arrays.copyOf(encoded, encoded.length + trailing);
                    Arrays.fill(bytes, encoded.length, bytes.length, fill);
                    RowBytesReader in = new RowBytesReader(bytes, NO_CACHE);
                    assertThat(in.readVarLong()).as("value %d, %d trailing %02x", value, trailing, fill)
                            .isEqualTo(value);
                    assertThat(in.position()).isEqualTo(encoded.length);
                }
            }
        }
    }

    @Test
    void zigZagLongsReadBackAfterOtherFields() {
        RowBytesWriter out = new RowBytesWriter();
        List<Long> values = interestingLongs();
        for (long value : values) {
            out.writeByte((byte) 'L');
            out.writeZigZag(value);
            out.writeLong(value);
        }
        RowBytesReader in = new RowBytesReader(out.toByteArray(), NO_CACHE);
        for (long value : values) {
            assertThat(in.readByte()).isEqualTo('L');
            assertThat(in.readZigZag()).isEqualTo(value);
            assertThat(in.readLong()).isEqualTo(value);
        }
        in.requireEnd();
    }

    @Test
    void aReaderResetForTheNextRowReadsOnlyThatRowWhateverTheLastOneLeft() {
        RowBytesWriter longer = new RowBytesWriter();
        longer.writeVarLong(1L << 40);
        longer.writeString("plant1/line0/sensor1");
        longer.writeLong(7);
        RowBytesWriter shorter = new RowBytesWriter();
        shorter.writeVarLong(5);
        shorter.writeString("tag");
        byte[] first = longer.toByteArray();
        byte[] second = shorter.toByteArray();

        RowBytesReader in = new RowBytesReader(new byte[0], new BytesCache<>(16, 64));
        assertThat(in.reset(first, 0, 0).readVarLong()).isEqualTo(1L << 40); // left mid-row
        assertThat(in.reset(second, 0, 0).readVarLong()).isEqualTo(5);
        assertThat(in.readRepeatedString()).isEqualTo("tag");
        in.requireEnd(); // the end of the second row, not of the first

        assertThat(in.reset(first, 0, 0).readVarLong()).isEqualTo(1L << 40);
        assertThat(in.readRepeatedString()).isEqualTo("plant1/line0/sensor1");
        assertThat(in.readLong()).isEqualTo(7);
        in.requireEnd();

        // a row cut short after a longer one: bounds are the new row's
        byte[] cut = Arrays.copyOf(second, second.length - 1);
        RowBytesReader again = in.reset(cut, 0, 0);
        again.readVarLong();
        assertThatThrownBy(again::readRepeatedString).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("implausible count 3 at 2"); // 3 bytes of "tag", 2 left in this row
        // and from a later position, as the sink starts after the magic and version bytes
        assertThat(in.reset(first, 0, 0).readVarLong()).isEqualTo(1L << 40);
        int afterVarint = in.position();
        assertThat(in.reset(first, 0, afterVarint).readRepeatedString()).isEqualTo("plant1/line0/sensor1");
        // a row behind a header: positions in messages count from the row's start
        byte[] behind = new byte[5 + cut.length];
        System.arraycopy(cut, 0, behind, 5, cut.length);
        RowBytesReader offset = in.reset(behind, 5, 5);
        offset.readVarLong();
        assertThatThrownBy(offset::readRepeatedString).hasMessage("implausible count 3 at 2");
    }

    @Test
    void aVarintCutShortOrLongerThanTenBytesIsRefused() {
        byte[] continuing = new byte[11];
        Arrays.fill(continuing, (byte) 0x80);
        for (int length = 0; length <= 11; length++) {
            RowBytesReader in = new RowBytesReader(Arrays.copyOf(continuing, length), NO_CACHE);
            assertThatThrownBy(in::readVarLong).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void readStringAcceptsAsciiAndUtf8AndRefusesMalformedUtf8AtAnyPosition() {
        for (int length = 0; length <= 20; length++) {
            String ascii = "abcdefghijklmnopqrstuvwxyz".substring(0, length);
            assertThat(read(ascii.getBytes(StandardCharsets.US_ASCII))).isTrue();
            for (int at = 0; at < length; at++) {
                byte[] bad = ascii.getBytes(StandardCharsets.US_ASCII);
                bad[at] = (byte) 0xC3; // a lead byte without its continuation (or before another lead)
                if (at + 1 < length) {
                    bad[at + 1] = (byte) 'x';
                }
                assertThat(read(bad)).as("0xC3 at %d of %d", at, length).isFalse();
                byte[] good = (ascii.substring(0, at) + "é" + ascii.substring(at)).getBytes(StandardCharsets.UTF_8);
                assertThat(read(good)).as("é at %d of %d", at, length).isTrue();
            }
        }
    }

    private static boolean read(byte[] utf8) {
        RowBytesWriter out = new RowBytesWriter();
        out.writeVarLong(utf8.length);
        out.writeBytes(utf8);
        RowBytesReader in = new RowBytesReader(out.toByteArray(), NO_CACHE);
        try {
            in.readString();
            in.requireEnd();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
