package io.qubiq.sink.mqtt;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The buffer bytes of an {@link MqttMessage}. Layout, version 1:
 *
 * <pre>
 * 0x01                 format version
 * flags                bits 0-1 QoS, bit 2 retain, bits 3-7 zero
 * varint n             topic length in bytes (unsigned LEB128)
 * n bytes              topic, UTF-8
 * rest                 payload, as is (may be empty)
 * </pre>
 *
 * Bytes that are not such a record (another version, reserved flag bits set, a truncated or
 * malformed topic, a topic the message rules refuse) fail with {@link PermanentException}, so the
 * channel quarantines them with their raw bytes. A later format gets a new version byte; this
 * decoder keeps reading version 1.
 *
 * <p>Stateless and thread-safe.
 */
public final class MqttMessageCodec implements ItemCodec<MqttMessage> {

    static final byte VERSION = 1;
    private static final int PREVIEW_PAYLOAD_BYTES = 120;

    @Override
    public byte[] encode(MqttMessage message) {
        byte[] topic = message.topic().getBytes(StandardCharsets.UTF_8);
        byte[] payload = message.payloadBytes();
        int varint = varintLength(topic.length);
        byte[] out = new byte[2 + varint + topic.length + payload.length];
        out[0] = VERSION;
        out[1] = (byte) (message.qos() | (message.retain() ? 0b100 : 0));
        int at = 2;
        for (int value = topic.length; ; value >>>= 7) {
            if (value < 0x80) {
                out[at++] = (byte) value;
                break;
            }
            out[at++] = (byte) ((value & 0x7f) | 0x80);
        }
        System.arraycopy(topic, 0, out, at, topic.length);
        System.arraycopy(payload, 0, out, at + topic.length, payload.length);
        return out;
    }

    @Override
    public MqttMessage decode(byte[] bytes) throws PermanentException {
        try {
            if (bytes.length < 3) {
                throw new IllegalArgumentException("too short for an MQTT message record");
            }
            if (bytes[0] != VERSION) {
                throw new IllegalArgumentException("unknown MQTT message format version " + (bytes[0] & 0xff));
            }
            int flags = bytes[1] & 0xff;
            if ((flags & ~0b111) != 0 || (flags & 0b11) == 3) {
                throw new IllegalArgumentException("invalid flags byte 0x" + Integer.toHexString(flags));
            }
            int at = 2;
            int length = 0;
            for (int shift = 0; ; shift += 7) {
                if (at >= bytes.length || shift > 14) {
                    throw new IllegalArgumentException("truncated or oversized topic length");
                }
                int b = bytes[at++] & 0xff;
                length |= (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            if (length > bytes.length - at) {
                throw new IllegalArgumentException("topic of " + length + " bytes runs past the record's end");
            }
            String topic = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, at, length)).toString();
            byte[] payload = Arrays.copyOfRange(bytes, at + length, bytes.length);
            return new MqttMessage(topic, payload, flags & 0b11, (flags & 0b100) != 0);
        } catch (IllegalArgumentException | CharacterCodingException e) {
            throw new PermanentException("undecodable MQTT message (" + bytes.length + " bytes): " + e.getMessage(), e);
        }
    }

    /** {@code plant/line1/temp qos=1 retain=false 4 bytes "21.5"}, payload shortened. */
    @Override
    public String preview(MqttMessage message) {
        return message.topic() + " qos=" + message.qos() + " retain=" + message.retain() + " "
                + message.payloadBytes().length + " bytes " + PayloadExcerpt.of(message.payloadBytes(), PREVIEW_PAYLOAD_BYTES);
    }

    private static int varintLength(int value) {
        int length = 1;
        while (value >= 0x80) {
            value >>>= 7;
            length++;
        }
        return length;
    }
}
