package io.qubiq.storeforward.quarantine;

import io.qubiq.fileops.StoreFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What opening a quarantine directory does before the store serves anything:
 *
 * <ul>
 *   <li>temp files ({@code *.qentry.tmp}) are deleted: their add never returned, so nothing was
 *       promised for them;</li>
 *   <li>every entry file is read in full and verified (size, magic, version, lengths, CRC32C,
 *       field values, id matching the file name); intact ones go into the index, metadata only;</li>
 *   <li>damaged ones are moved to {@code corrupt/} with a note and counted, never deleted and never
 *       thrown: one bad file must not take the channel down;</li>
 *   <li>files this store would not have written are left alone and logged.</li>
 * </ul>
 *
 * An I/O error on the directory itself (cannot list it) is thrown: that is not a damaged entry.
 *
 * <p><b>Threading.</b> Runs once, on the opening thread, before the store is shared.
 */
final class QuarantineRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(QuarantineRecovery.class);

    /** What recovery found: how many entry files were set aside and temp files removed. */
    record Report(int setAside, int tempFilesRemoved) {
    }

    private QuarantineRecovery() {
    }

    static Report recover(QuarantineDirectory directory, CorruptFolder corrupt, QuarantineIndex index)
            throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory.path())) {
            files = listing.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        int setAside = 0;
        int tempRemoved = 0;
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (QuarantineDirectory.isTemp(name)) {
                try {
                    directory.files().deleteIfExists(file);
                    tempRemoved++;
                    LOG.info("Deleted {}: an add that was interrupted before it committed", file);
                } catch (IOException e) {
                    LOG.warn("Could not delete {} ({}), left by an add that never committed; it is ignored, "
                            + "delete it by hand", file, e.toString());
                }
                continue;
            }
            OptionalLong id = QuarantineDirectory.parseId(name);
            if (id.isEmpty()) {
                if (!name.equals(QuarantineDirectoryLock.FILE_NAME) && !name.startsWith(StoreFormat.FILE_NAME)) {
                    LOG.warn("Ignoring {}: not a quarantine entry file; move it out of {}", file, directory.path());
                }
                continue;
            }
            Optional<String> damage = admit(file, id.getAsLong(), index);
            if (damage.isPresent()) {
                setAside(file, damage.get(), corrupt);
                setAside++;
            }
        }
        if (setAside > 0 || tempRemoved > 0) {
            directory.sync();
        }
        return new Report(setAside, tempRemoved);
    }

    /** Indexes an intact entry file; otherwise returns what is wrong with it. */
    private static Optional<String> admit(Path file, long id, QuarantineIndex index) {
        try {
            QuarantineEntryFormat.Decoded decoded = QuarantineEntryFormat.read(file, false);
            if (decoded.entry().id() != id) {
                return Optional.of("at byte 6: the header says id " + decoded.entry().id()
                        + " but the file name says " + id);
            }
            index.put(decoded.entry(), decoded.fileBytes());
            return Optional.empty();
        } catch (QuarantineEntryCorruptException e) {
            return Optional.of("at byte " + e.offset() + ": " + e.problem());
        } catch (IOException e) {
            return Optional.of("the file could not be read: " + e);
        }
    }

    /** Moves a damaged file to {@code corrupt/} with its note and logs it; where it went, if it moved. */
    static Optional<Path> setAside(Path file, String problem, CorruptFolder corrupt) {
        String note = note(file, problem);
        Optional<Path> moved = corrupt.moveAside(file, note);
        if (moved.isPresent()) {
            LOG.error("Quarantine entry {} is damaged ({}) and was moved to {}; its item is no longer listed. "
                    + "Read {}{} for what to do.", file, problem, moved.get(), moved.get(), CorruptFolder.NOTE_SUFFIX);
        } else {
            LOG.error("Quarantine entry {} is damaged ({}) and could not be moved to {}; it is not listed. "
                    + "Move it out of the quarantine directory by hand.", file, problem, corrupt.path());
        }
        return moved;
    }

    private static String note(Path file, String problem) {
        return "Set aside by the Qubiq quarantine store at " + Instant.now() + System.lineSeparator()
                + "Original file: " + file + System.lineSeparator()
                + "Problem: " + problem + System.lineSeparator()
                + "The gateway no longer lists this entry, and its item has not been delivered. If the item is "
                + "still needed, re-send it from its source (or decode this file: quarantine entry format "
                + "version 1, documented in QuarantineEntryFormat); then delete this file and this note.";
    }
}
