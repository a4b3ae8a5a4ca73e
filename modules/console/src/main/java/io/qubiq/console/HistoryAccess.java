package io.qubiq.console;

import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the console may ask of the historian. The application implements it and answers with the
 * records declared here, which are the API's JSON (the console owns the wire format).
 */
public interface HistoryAccess {

    /** One tag's points, oldest first. */
    record Series(TagPath tag, List<Point> points) {
        public Series {
            points = List.copyOf(points);
        }
    }

    /**
     * One point: for raw samples the stored timestamp, the value (a number, boolean, text or
     * timestamp; null for a sample without a value) and its quality; for aggregates the start of the
     * interval, the aggregate and the worst quality seen in it.
     */
    record Point(Instant ts, Object value, Quality quality) {
    }

    /**
     * One history table as the WAL supervisor saw it at its last poll.
     *
     * @param errorTag QuestDB's error tag and message of a suspension; null when QuestDB reports none
     * @param cause    the supervisor's reading of a suspension ({@code DISK_FULL}, {@code
     *                 TOO_MANY_OPEN_FILES}, {@code OUT_OF_MEMORY}, {@code OTHER}), while suspended
     * @param poisoned suspended for a cause that is not resumed automatically: an operator must act
     */
    record WalTable(String table, boolean present, boolean suspended, long writerTxn, long sequencerTxn,
                    @MayBeNull String errorTag, @MayBeNull String errorMessage, Optional<String> cause, int autoResumes,
                    long autoResumesTotal, boolean poisoned, boolean lagging, Optional<Instant> lastPollAt) {
    }

    /** The historian's counters since start, and the live tail's size. */
    record Status(long valuesReceived, long samplesStored, long valuesFiltered, long rowsSubmitted, int rowsPending,
                  long rowsRejected, long queueDropped, int liveTailTags, long liveTailRoom, long liveTailMaxRoom) {
    }

    /**
     * Runs a history query from the raw query parameters ({@code tags}, {@code from}, {@code to},
     * {@code interval}, {@code agg}).
     *
     * @throws RequestFailure.InvalidRequest for a bad parameter (naming it)
     * @throws RequestFailure.LimitExceeded when the result would exceed the configured row limit
     * @throws RequestFailure.Unavailable when QuestDB cannot be reached
     * @throws RequestFailure.DependencyFailed when QuestDB fails the query
     */
    List<Series> query(Map<String, List<String>> params);

    /** The WAL supervisor's view of every history table. */
    List<WalTable> walStatus();

    /** The historian's own status: counters, live tail size. */
    Status status();

    /**
     * The operator action for a table whose WAL holds a poison transaction: resume it from the next
     * transaction, skipping the failed one (audited). Answers the table's status afterwards.
     *
     * @throws RequestFailure.NotFound for a table the historian does not write
     * @throws RequestFailure.Unavailable when QuestDB cannot be reached
     * @throws RequestFailure.DependencyFailed when QuestDB refuses
     */
    WalTable skipWalTransaction(String table, String user, String from);
}
