package io.qubiq.historian.query;

/**
 * A history query would return more points than {@code max_result_rows}. The message names the
 * limit and how to narrow the query; the console answers it as a client error (HTTP 422).
 */
public final class ResultTooLargeException extends Exception {

    private final int limit;
    private final long atLeast;

    public ResultTooLargeException(int limit, long atLeast, boolean aggregate) {
        super("the query would return " + (aggregate ? "up to " : "more than ") + (aggregate ? atLeast : limit)
                + " points, above the limit of " + limit + " (historian max_result_rows); narrow it: a shorter"
                + " time range, fewer tags" + (aggregate ? ", or a longer interval" : ", or an aggregate with an"
                + " interval (such as interval=1m&agg=avg)"));
        this.limit = limit;
        this.atLeast = atLeast;
    }

    public int limit() {
        return limit;
    }

    /** The number of points the query reached or would reach. */
    public long atLeast() {
        return atLeast;
    }
}
