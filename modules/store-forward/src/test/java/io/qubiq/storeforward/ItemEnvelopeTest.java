package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The little delivery history a channel wraps around each buffered item. */
class ItemEnvelopeTest {

    @Test
    void envelopeRoundTripKeepsAttemptsFirstFailureAndTheItemBytes() {
        byte[] item = "temperature=21.5".getBytes(StandardCharsets.UTF_8);
        byte[] encoded = new ItemEnvelope(2, 1_764_470_000_123L, item).encode();

        assertThat(encoded).hasSize(ItemEnvelope.HEADER_BYTES + item.length);
        ItemEnvelope decoded = ItemEnvelope.decode(encoded).orElseThrow();
        assertThat(decoded.attempts()).isEqualTo(2);
        assertThat(decoded.firstFailureMillis()).isEqualTo(1_764_470_000_123L);
        assertThat(decoded.item()).isEqualTo(item);
    }

    @Test
    void aDecodedEnvelopeLeavesItsItemInThePayloadAndEncodesBackToTheSameBytes() {
        byte[] item = "pressure=4.2".getBytes(StandardCharsets.UTF_8);
        byte[] payload = new ItemEnvelope(3, 99L, item).encode();

        ItemEnvelope decoded = ItemEnvelope.decode(payload).orElseThrow();

        assertThat(decoded.bytes()).isSameAs(payload);
        assertThat(decoded.itemOffset()).isEqualTo(ItemEnvelope.HEADER_BYTES);
        assertThat(decoded.itemLength()).isEqualTo(item.length);
        assertThat(decoded.item()).isEqualTo(item).isNotSameAs(payload);
        assertThat(decoded.encode()).isEqualTo(payload).isNotSameAs(payload);
    }

    @Test
    void layoutIsFormatByteThenAttemptsThenFirstFailureThenItem() {
        byte[] encoded = new ItemEnvelope(0x0102, 0x0A0B0C0D0E0F1011L, new byte[] {42}).encode();
        assertThat(encoded).containsExactly(1, 0x01, 0x02, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 42);
    }

    @Test
    void freshEnvelopeHasNoAttemptsAndNoFailureTime() {
        ItemEnvelope decoded = ItemEnvelope.decode(ItemEnvelope.fresh(new byte[] {1, 2, 3}).encode()).orElseThrow();
        assertThat(decoded.attempts()).isZero();
        assertThat(decoded.firstFailureMillis()).isZero();
        assertThat(decoded.item()).containsExactly(1, 2, 3);
    }

    @Test
    void attemptsAboveWhatTheHeaderHoldsSaturateInsteadOfWrappingToFew() {
        ItemEnvelope decoded = ItemEnvelope.decode(new ItemEnvelope(70_000, 5, new byte[] {1}).encode()).orElseThrow();
        assertThat(decoded.attempts()).isEqualTo(0xFFFF);
        ItemEnvelope atLimit = ItemEnvelope.decode(new ItemEnvelope(0xFFFF, 5, new byte[] {1}).encode()).orElseThrow();
        assertThat(atLimit.attempts()).isEqualTo(0xFFFF);
    }

    @Test
    void anEmptyItemStillRoundTrips() {
        ItemEnvelope decoded = ItemEnvelope.decode(ItemEnvelope.fresh(new byte[0]).encode()).orElseThrow();
        assertThat(decoded.item()).isEmpty();
    }

    @Test
    void bytesShorterThanTheHeaderAreNotAnEnvelope() {
        assertThat(ItemEnvelope.decode(new byte[0])).isEqualTo(Optional.empty());
        byte[] header = ItemEnvelope.fresh(new byte[] {7}).encode();
        byte[] truncated = java.util.Arrays.copyOf(header, ItemEnvelope.HEADER_BYTES - 1);
        assertThat(ItemEnvelope.decode(truncated)).isEmpty();
    }

    @Test
    void bytesWithAnotherFormatByteAreNotAnEnvelope() {
        byte[] encoded = ItemEnvelope.fresh("an item that is long enough".getBytes(StandardCharsets.UTF_8)).encode();
        encoded[0] = 2;
        assertThat(ItemEnvelope.decode(encoded)).isEmpty();
        assertThat(ItemEnvelope.decode("plain text written by something else".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
    }
}
