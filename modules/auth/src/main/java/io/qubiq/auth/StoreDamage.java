package io.qubiq.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.zip.CRC32C;

/**
 * A user or API-token file found damaged when the gateway opened it, and where its bytes were set aside.
 *
 * <p>On open the damaged file is copied (not moved) to {@code <auth dir>/corrupt/<name>.<crc32c>} with a
 * {@code .note} beside it saying when, what was wrong and how to recover; the copy is named after the CRC32C
 * of its content, so restarting on the same damage copies it once. The file itself stays where it was and
 * is never written by a gateway running with it damaged: only {@link AdminReset} (the {@code reset-admin}
 * command, gateway stopped) replaces it. While any store is damaged sign-in and API tokens are refused
 * ({@link #RECOVERY}); the data path does not depend on them and runs on.
 *
 * @param file    the damaged store file
 * @param copy    the copy set aside, or empty text when even the copy failed (then {@code problem} says so)
 * @param problem what was wrong, naming the line where known
 * @param newerFormat the file is intact but written by a newer gateway: nothing was copied or changed
 */
public record StoreDamage(Path file, String copy, String problem, boolean newerFormat) {

    /** Damage found on open, with where its bytes were copied (empty text when they could not be). */
    public StoreDamage(Path file, String copy, String problem) {
        this(file, copy, problem, false);
    }


    /** What an operator does about it; the same words in the log, on /health and in every refusal. */
    public static final String RECOVERY = "stop the gateway and run 'qubiq reset-admin --data-dir DIR' (a fresh user"
            + " store with one administrator; API tokens must be issued again), or restore the file from a backup";

    /** The sentence given to a refused sign-in or API call, and on /health. */
    public String message() {
        if (newerFormat) {
            return "sign-in is refused because the user store " + file + " is in a format this gateway does not read: "
                    + problem + ". Nothing was changed. Data collection continues. Run the newer version again, or"
                    + " restore the file from a backup made by this version.";
        }
        return "sign-in is refused because the user store is damaged: " + file + ": " + problem
                + (copy.isEmpty() ? "" : " (a copy is kept in " + copy + ")") + ". Data collection continues. To"
                + " recover, " + RECOVERY + ".";
    }

    /** Sets the file of {@code damage} aside and describes it; never throws. */
    static StoreDamage setAside(CorruptStoreException damage, Instant now) {
        Path file = damage.file();
        String problem = damage.problem();
        if (damage.newerFormat()) {
            return new StoreDamage(file, "", problem, true); // not damage: nothing to copy, nothing changed
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            CRC32C crc = new CRC32C();
            crc.update(bytes);
            Path corrupt = Files.createDirectories(file.resolveSibling("corrupt"));
            Path copy = corrupt.resolve(file.getFileName() + "." + String.format("%08x", crc.getValue()));
            if (!Files.exists(copy)) {
                Path temp = corrupt.resolve(copy.getFileName() + ".tmp");
                Files.write(temp, bytes);
                Files.move(temp, copy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                Files.writeString(corrupt.resolve(copy.getFileName() + ".note"), "Copied at " + now + " from " + file
                        + " (" + bytes.length + " bytes), found damaged when the gateway opened it: " + problem
                        + ".\nThe gateway ran with sign-in and API tokens refused. To recover, " + RECOVERY + ".\n",
                        StandardCharsets.UTF_8);
            }
            return new StoreDamage(file, copy.toString(), problem);
        } catch (NoSuchFileException gone) {
            return new StoreDamage(file, "", problem);
        } catch (IOException | RuntimeException e) {
            return new StoreDamage(file, "", problem + "; setting a copy aside failed too: " + e);
        }
    }
}
