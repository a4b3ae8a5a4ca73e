package io.qubiq.console;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The console's way to change the gateway's configuration file (issue 22, the write side): a key
 * written or removed on the revision the client read, a hand edit reloaded, a revision rolled back,
 * and the history of revisions. The application implements it over the configuration file, its
 * revisions and the seam that applies a change to the running gateway; it answers with the records
 * declared here, and the console alone chooses their HTTP status ({@link ConfigChangeRoutes}).
 *
 * <p>No answer ever holds a secret's value: keys and text lines of secret keys read {@code "***"}.
 * Nothing is written unless the whole new file is valid, with the same loader, environment and
 * command-line overrides as at start-up.
 */
public interface ConfigChanges {

    /**
     * Who makes a change and how, as revisions and the audit journal record it.
     *
     * @param user    the signed-in user (the audit entry's user)
     * @param author  the revision's author: the user, or {@code api-token:<id>} for a request made with a token
     * @param source  {@code api} or {@code console}
     * @param from    the remote address
     */
    record Author(String user, String author, String source, String from) {
    }

    /**
     * What a change answered: written, refused as invalid, made on a revision that is no longer the file's, or
     * waiting for the caller's choice about data it would affect.
     */
    sealed interface Outcome permits Written, Invalid, Stale, ChoiceNeeded {
    }

    /**
     * The caller's explicit choices for what a change does to buffered data (body fields of the PUT or DELETE).
     *
     * @param onShrink for a {@code max_bytes} lowered below a channel's backlog: {@code keep} (kept until it
     *                 drains) or {@code drop_oldest} (dropped now, counted in the loss ledger)
     * @param onRemove for an outbound connection removed while it holds items: {@code drain} (it runs on until
     *                 its buffer and quarantine are empty, then goes), {@code keep_orphan} (it goes now, its data
     *                 stays as an orphan) or {@code discard} (recorded as lost now)
     */
    record Choices(Optional<String> onShrink, Optional<String> onRemove) {
        public static final List<String> ON_SHRINK = List.of("keep", "drop_oldest");
        public static final List<String> ON_REMOVE = List.of("drain", "keep_orphan", "discard");

        public static Choices none() {
            return new Choices(Optional.empty(), Optional.empty());
        }
    }

    /**
     * One channel whose buffered data a change would affect.
     *
     * @param maxBytes the new {@code max_bytes}, or 0 when the connection is removed (asked as {@code onRemove})
     */
    record Backlog(String connection, long bufferedItems, long bufferedBytes, long quarantinedItems, long maxBytes) {
    }

    /**
     * The change would cost buffered data unless the caller says what to do: nothing was written. Send the
     * change again with {@code field} set to one of {@code options}.
     */
    record ChoiceNeeded(String error, String field, List<String> options, List<Backlog> backlogs) implements Outcome {
        public ChoiceNeeded {
            options = List.copyOf(options);
            backlogs = List.copyOf(backlogs);
        }
    }

    /**
     * The file was changed (or already held that text) and the change handed to the running gateway.
     *
     * @param revision    the file's revision now, {@code sha256:<hex>}
     * @param diff        what differs from the file before, key by key, secrets masked
     * @param applied     the components now running with the change
     * @param needRestart the components that keep the old configuration until the gateway restarts
     */
    record Written(String revision, List<ConfigAccess.Change> diff, List<String> applied, List<String> needRestart)
            implements Outcome {
        public Written {
            diff = List.copyOf(diff);
            applied = List.copyOf(applied);
            needRestart = List.copyOf(needRestart);
        }
    }

    /**
     * The change would leave the configuration invalid, or changes what cannot be changed this way (a
     * secret, a key from the environment). Nothing was written.
     *
     * @param problems every problem, each with its key path and, where it has one, its place in the new file
     */
    record Invalid(String error, List<ConfigAccess.Problem> problems) implements Outcome {
        public Invalid {
            problems = List.copyOf(problems);
        }
    }

    /**
     * The change was made on a revision that is no longer the file's. Nothing was written.
     *
     * @param currentRevision the file's revision now
     * @param diff            the file's lines from the revision the change was made on to now, unified, secret
     *                        values masked; empty when that revision is no longer kept
     */
    record Stale(String error, String currentRevision, String diff) implements Outcome {
    }

    /**
     * One revision of the configuration file, without its text.
     *
     * @param number   1, 2, 3, … in the order they were recorded
     * @param revision {@code sha256:<hex>} of the file's bytes, as {@code GET /api/v1/config} names it
     * @param parent   the number of the revision it was made from; null for the first and for a hand edit
     * @param source   {@code api}, {@code console}, {@code rollback} or {@code file} (a hand edit)
     */
    record RevisionSummary(long number, String revision, @MayBeNull Long parent, String author, Instant at,
                           String source, String comment) {
    }

    /**
     * One revision and what it changed.
     *
     * @param diff the file's lines from its parent to it, unified, secret values masked; empty without a
     *             parent that is still kept
     */
    record RevisionDetail(RevisionSummary revision, String diff) {
    }

    /**
     * What rolling back to a revision would write, asked before it is written (the console's confirmation).
     *
     * @param revision     the revision rolled back to
     * @param fileRevision the file's revision now, the one the diff starts from
     * @param diff         the file's lines from now to that revision's text, unified, secret values masked;
     *                     empty when the file holds that text already
     */
    record RollbackPreview(RevisionSummary revision, String fileRevision, String diff) {
    }

    /**
     * Sets the key at {@code keyPath} to {@code value}, written as the fewest leaf edits to the file.
     *
     * @param baseRevision the revision the client read ({@code sha256:<hex>})
     * @throws RequestFailure.InvalidRequest the key path is not one
     * @throws RequestFailure.Conflict       the configuration was not read from a file
     */
    Outcome put(String keyPath, Object value, String baseRevision, String comment, Author author);

    /**
     * {@link #put} with the caller's choices for buffered data the change affects; without the one it needs the
     * answer is {@link ChoiceNeeded} and nothing is written.
     */
    default Outcome put(String keyPath, Object value, String baseRevision, String comment, Author author,
                        Choices choices) {
        return put(keyPath, value, baseRevision, comment, author);
    }

    /**
     * Removes the key or section at {@code keyPath} from the file.
     *
     * @throws RequestFailure.NotFound the file does not hold that key
     */
    Outcome remove(String keyPath, String baseRevision, String comment, Author author);

    /** {@link #remove} with the caller's choices for buffered data the removal affects. */
    default Outcome remove(String keyPath, String baseRevision, String comment, Author author, Choices choices) {
        return remove(keyPath, baseRevision, comment, author);
    }

    /** Reads the file again after a hand edit, records it as a revision and applies it. */
    Outcome reload(Author author);

    /**
     * The configuration file as it is on disk, to keep or to move to another gateway.
     *
     * @param revision its revision ({@code sha256:<hex>} of the bytes)
     * @param file     the file's name, for a download
     * @param text     the file's text, byte for byte but for secrets written into it in clear, which read
     *                 {@code ***}; {@code ${VARIABLE}} references stay references
     */
    record Export(String revision, String file, String text) {
    }

    /** The file as it is on disk. */
    Export export();

    /**
     * Makes {@code text} the configuration file, made on {@code baseRevision}: a secret reading {@code ***}
     * (as exported) keeps the value the file holds at that key; then validated like any change (nothing
     * written when it is not valid), kept as a revision of source {@code import}, applied.
     * Importing the text the file already holds changes nothing. The dry run is {@code POST
     * /api/v1/config/validate}.
     */
    Outcome importText(String text, String baseRevision, String comment, Author author);

    /** {@link #importText} with the caller's choices for buffered data the new file affects. */
    default Outcome importText(String text, String baseRevision, String comment, Author author, Choices choices) {
        return importText(text, baseRevision, comment, author);
    }

    /**
     * Writes an earlier revision's text as a new revision of source {@code rollback}.
     *
     * @throws RequestFailure.NotFound no kept revision has that number or token
     */
    Outcome rollback(String id, String comment, Author author);

    /**
     * What {@link #rollback} to {@code id} would change in the file now; changes nothing.
     *
     * @throws RequestFailure.NotFound no kept revision has that number or token
     */
    RollbackPreview rollbackPreview(String id);

    /** {@link #rollback} with the caller's choices for buffered data the earlier revision affects. */
    default Outcome rollback(String id, String comment, Author author, Choices choices) {
        return rollback(id, comment, author);
    }

    /** Every kept revision, newest first; empty when the configuration was not read from a file. */
    List<RevisionSummary> revisions();

    /**
     * @param id a revision's number or its token ({@code sha256:} optional, at least 8 hex digits)
     * @throws RequestFailure.NotFound no kept revision has that number or token
     */
    RevisionDetail revision(String id);
}
