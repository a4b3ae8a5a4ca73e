package io.qubiq.config.revision;

import java.time.Instant;
import java.util.Optional;

/**
 * One state of the configuration file that the gateway ran or wrote: the file's bytes are kept
 * beside it ({@link ConfigRevisions#text}).
 *
 * @param number  1, 2, 3, … in the order the store recorded them
 * @param token   the SHA-256 of the file's bytes, lower-case hex: how the API names a revision (a client
 *                says which text it edited by naming its hash, whoever wrote that text)
 * @param parent  the revision this one was made from, empty for the first and for a file edited by hand
 * @param author  who made the change: a user name, {@code api-token:<name>}, or {@code file} for a file
 *                found changed on disk
 * @param source  how: {@code console}, {@code api}, {@code rollback}, {@code import}, {@code file}
 * @param comment what the author wrote about it, may be empty
 */
public record Revision(long number, String token, Optional<Long> parent, String author, Instant at, String source,
                       String comment) {
}
