package io.qubiq.console;

import java.util.Map;

/**
 * A failed API request as the console answers it: the HTTP status and a message that names the
 * parameter, value or object at fault and what to do. Rendered as {@code {"status": 404, "error": "..."}}.
 *
 * <p>The one place that maps a {@link RequestFailure} to its status ({@link #statusOf}); besides those,
 * only the console's HTTP layer itself (the request guard, static files) answers with an error of its own.
 */
final class ApiError extends RuntimeException {

    private static final Map<Class<? extends RequestFailure>, Integer> STATUS = Map.of(
            RequestFailure.InvalidRequest.class, 400,
            RequestFailure.Forbidden.class, 403,
            RequestFailure.NotFound.class, 404,
            RequestFailure.Conflict.class, 409,
            RequestFailure.LimitExceeded.class, 422,
            RequestFailure.Fault.class, 500,
            RequestFailure.DependencyFailed.class, 502,
            RequestFailure.Unavailable.class, 503,
            RequestFailure.NoAnswer.class, 504);

    private final int status;

    ApiError(int status, String message) {
        super(message);
        this.status = status;
    }

    int status() {
        return status;
    }

    Body body() {
        return new Body(status, getMessage());
    }

    static ApiError of(RequestFailure failure) {
        return new ApiError(statusOf(failure.getClass()), failure.getMessage());
    }

    /** The HTTP status of a kind of failure. */
    static int statusOf(Class<? extends RequestFailure> kind) {
        Integer status = STATUS.get(kind);
        if (status == null) {
            throw new IllegalArgumentException("no HTTP status for " + kind.getName());
        }
        return status;
    }

    /** The error body every failed API request answers with. */
    record Body(int status, String error) {
    }
}
