package io.qubiq.config;

import java.util.Optional;

/**
 * The part of a text file between a begin and an end marker line, which a generator owns. The block
 * is {@code BEGIN\n<generated text>END}: the generated text ends with its own newline.
 */
final class GeneratedBlock {

    private GeneratedBlock() {
    }

    /** The text with the block's content replaced, or empty when the markers are missing or misordered. */
    static Optional<String> replace(String text, String begin, String end, String content) {
        int start = text.indexOf(begin);
        int stop = text.indexOf(end, Math.max(start, 0));
        if (start < 0 || stop < 0) {
            return Optional.empty();
        }
        return Optional.of(text.substring(0, start) + begin + "\n" + content + text.substring(stop));
    }

    /** Empty when the block holds exactly {@code content}; else where it first differs. */
    static Optional<String> compare(String text, String begin, String end, String content) {
        int start = text.indexOf(begin);
        int stop = text.indexOf(end, Math.max(start, 0));
        if (start < 0 || stop < 0) {
            return Optional.of("the markers " + begin + " and " + end + " are missing");
        }
        String actual = text.substring(start + begin.length(), stop);
        String expected = "\n" + content;
        if (actual.equals(expected)) {
            return Optional.empty();
        }
        String[] actualLines = actual.split("\n", -1);
        String[] expectedLines = expected.split("\n", -1);
        int firstLine = text.substring(0, start).split("\n", -1).length;
        for (int i = 0; i < Math.max(actualLines.length, expectedLines.length); i++) {
            String a = i < actualLines.length ? actualLines[i] : "(end of block)";
            String e = i < expectedLines.length ? expectedLines[i] : "(end of block)";
            if (!a.equals(e)) {
                return Optional.of("line " + (firstLine + i) + " is \"" + a + "\" but should be \"" + e + "\"");
            }
        }
        return Optional.of("the block differs");
    }
}
