package io.qubiq.testkit;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.ItemCodec;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;

/** Items that are plain strings, stored as UTF-8; bytes that are not valid UTF-8 fail to decode. */
public final class TextCodec implements ItemCodec<String> {

    @Override
    public byte[] encode(String item) {
        return item.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String decode(byte[] bytes) throws PermanentException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new PermanentException("not UTF-8 text: " + e.getMessage(), e);
        }
    }

    @Override
    public String preview(String item) {
        return item;
    }
}
