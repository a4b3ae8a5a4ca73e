package io.qubiq.sink.questdb;

import java.nio.charset.StandardCharsets;

/**
 * ASCII bytes seen as characters, without making a string: what {@link QuestDbSink#writeEncoded}
 * hands the client for a symbol value, which the client reads once, character by character, into
 * its request. Reused from row to row ({@link #wrap}): a holder must not keep it. Only ever wraps
 * bytes below 0x80 ({@link RowBytesReader#readAsciiOrString} checks). Not thread-safe.
 */
final class AsciiView implements CharSequence {

    private byte[] bytes;
    private int offset;
    private int length;

    void wrap(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + ", length " + length);
        }
        return (char) bytes[offset + index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().substring(start, end);
    }

    @Override
    public String toString() {
        return new String(bytes, offset, length, StandardCharsets.US_ASCII);
    }
}
