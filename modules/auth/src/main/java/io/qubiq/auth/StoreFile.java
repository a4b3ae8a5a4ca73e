package io.qubiq.auth;

import io.qubiq.fileops.FileOps;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The on-disk form shared by the users and API-token files: UTF-8 text in properties syntax, read
 * strictly and replaced whole through {@link AtomicFile}.
 *
 * <pre>
 * # Qubiq users. Written whole by the gateway; do not edit.
 * format=qubiq-users/1
 * user.0.name=alice
 * user.0.roles=admin
 * checksum=crc32c:1a2b3c4d
 * </pre>
 *
 * Lines are {@code key=value} (keys unique, no {@code =} in a key) or {@code #} comments. Values escape
 * {@code %}, CR and LF as {@code %25}, {@code %0D}, {@code %0A}. The last line is the CRC32C of every byte
 * before it. A higher version of the same format ({@code qubiq-users/2}) was written by a newer gateway and is
 * refused as such, changing nothing. Anything else (a missing or wrong checksum, an unknown format, a malformed line, bytes that are
 * not UTF-8) is a {@link CorruptStoreException} naming the file and line: such a file is never replaced
 * silently. Stateless apart from the target; one writer at a time (the owning store's lock).
 */
final class StoreFile {

    private static final String CHECKSUM = "checksum=crc32c:";

    private final AtomicFile file;
    private final String format;
    private final String title;

    StoreFile(Path path, String format, String title, FileOps files, AtomicFile.BeforeRename beforeRename) {
        this.file = new AtomicFile(path, files, beforeRename);
        this.format = format;
        this.title = title;
    }

    Path path() {
        return file.target();
    }

    /** The entries of the file, in file order, or empty when it does not exist yet. */
    Optional<Entries> read() throws IOException {
        file.discardLeftover();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new CorruptStoreException(path(), 0, "not UTF-8 text");
        }
        int checksumAt = text.lastIndexOf("\n" + CHECKSUM) + 1;
        if (checksumAt == 0 || !text.endsWith("\n")) {
            throw new CorruptStoreException(path(), 0, "the final checksum line is missing (truncated?)");
        }
        String[] lines = text.substring(0, checksumAt).split("\n", -1);
        String stated = text.substring(checksumAt + CHECKSUM.length(), text.length() - 1);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, text.substring(0, checksumAt).getBytes(StandardCharsets.UTF_8).length);
        if (!String.format("%08x", crc.getValue()).equals(stated)) {
            throw new CorruptStoreException(path(), lines.length, "checksum mismatch: the file was damaged or"
                    + " edited outside the gateway");
        }
        Map<String, String> entries = new LinkedHashMap<>();
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0 || entries.put(line.substring(0, eq), unescape(line.substring(eq + 1))) != null) {
                throw new CorruptStoreException(path(), i + 1, eq <= 0 ? "not a key=value line" : "duplicate key");
            }
        }
        Entries result = new Entries(path(), Collections.unmodifiableMap(entries));
        String found = entries.get("format");
        if (found != null && newer(found)) {
            throw CorruptStoreException.newer(path(), found, format);
        }
        if (!format.equals(found)) {
            throw new CorruptStoreException(path(), 0, "expected format=" + format + ", found "
                    + entries.getOrDefault("format", "no format line"));
        }
        return Optional.of(result);
    }

    /** True for this file's format family with a higher version number ({@code qubiq-users/2} over {@code /1}). */
    private boolean newer(String found) {
        int slash = format.lastIndexOf('/');
        String family = format.substring(0, slash + 1);
        if (!found.startsWith(family) || !found.substring(family.length()).matches("[0-9]{1,9}")) {
            return false;
        }
        return Integer.parseInt(found.substring(family.length())) > Integer.parseInt(format.substring(slash + 1));
    }

    /** Replaces the file with {@code entries} (keys in the given order); committed on return. */
    void write(Map<String, String> entries) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append("# ").append(title).append(" Written whole by the gateway; do not edit.\n");
        text.append("format=").append(format).append('\n');
        entries.forEach((key, value) -> text.append(key).append('=').append(escape(value)).append('\n'));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
        out.write(body);
        CRC32C crc = new CRC32C();
        crc.update(body);
        out.write((CHECKSUM + String.format("%08x", crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8));
        file.replace(out.toByteArray());
    }

    private static String escape(String value) {
        return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    private static String unescape(String value) {
        return value.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%");
    }

    /** The key-value pairs of a file that passed its checksum; typed access names the file on failure. */
    record Entries(Path file, Map<String, String> values) {

        String required(String key) throws CorruptStoreException {
            String value = values.get(key);
            if (value == null) {
                throw new CorruptStoreException(file, 0, "missing key " + key);
            }
            return value;
        }

        Optional<String> optional(String key) {
            return Optional.ofNullable(values.get(key));
        }

        int count(String key) throws CorruptStoreException {
            try {
                return Integer.parseInt(required(key));
            } catch (NumberFormatException e) {
                throw new CorruptStoreException(file, 0, key + " is not a number");
            }
        }
    }
}
