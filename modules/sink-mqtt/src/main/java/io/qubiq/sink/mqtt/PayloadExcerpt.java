package io.qubiq.sink.mqtt;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A short, readable rendering of a payload for logs and the quarantine view: quoted text when the
 * shown bytes are valid UTF-8 without control characters (tabs and line breaks aside), otherwise
 * hex. Longer payloads are cut and marked with an ellipsis. Stateless.
 */
final class PayloadExcerpt {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PayloadExcerpt() {
    }

    /** {@code "21.5"}, {@code "a long tex…"} or {@code hex 00ff10…}. */
    static String of(byte[] payload, int maxBytes) {
        int shown = Math.min(payload.length, maxBytes);
        boolean cut = shown < payload.length;
        String text = text(payload, shown, cut);
        if (text != null) {
            return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "\\r")
                    .replace("\t", "\\t") + (cut ? "…" : "") + "\"";
        }
        StringBuilder hex = new StringBuilder("hex ");
        for (int i = 0; i < shown; i++) {
            hex.append(HEX[(payload[i] >> 4) & 0xf]).append(HEX[payload[i] & 0xf]);
        }
        return cut ? hex.append('…').toString() : hex.toString();
    }

    /** The text of the first {@code length} bytes, or null when they are not readable UTF-8. */
    private static String text(byte[] payload, int length, boolean cut) {
        // a cut may split a multi-byte character: back off to its start
        int end = length;
        if (cut) {
            while (end > 0 && end > length - 3 && (payload[end] & 0xc0) == 0x80) {
                end--;
            }
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(payload, 0, end)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') {
                return null;
            }
        }
        return text;
    }
}
