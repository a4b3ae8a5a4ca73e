package io.qubiq.console;

/**
 * Why a request cannot be answered, typed by what the caller must do. The access interfaces the
 * application implements ({@link StoreForwardAccess}, {@link HistoryAccess}, {@link PipelineAccess},
 * {@link DeviceAccess}, {@link ConfigAccess}, {@link ConfigChanges}) and the console's own routes throw these; the console alone turns each kind
 * into an HTTP status and the error body {@code {"status": ..., "error": message}}, in one place
 * ({@code ApiError}), which also lists the statuses in the OpenAPI description.
 * The message is shown to the operator as it is: it names the parameter, value or object at fault and
 * what to do.
 */
public abstract sealed class RequestFailure extends RuntimeException {

    private RequestFailure(String message) {
        super(message);
    }

    /** The request is malformed (a parameter or body field is missing or wrong): fix the request. */
    public static final class InvalidRequest extends RequestFailure {
        public InvalidRequest(String message) {
            super(message);
        }
    }

    /**
     * The caller is signed in and may call the endpoint, but not for this object (a configuration key
     * outside the sections its permission covers): ask someone who holds the named permission.
     */
    public static final class Forbidden extends RequestFailure {
        public Forbidden(String message) {
            super(message);
        }
    }

    /** The named object (connection, tag, table, pipeline, quarantined item) does not exist. */
    public static final class NotFound extends RequestFailure {
        public NotFound(String message) {
            super(message);
        }
    }

    /**
     * The object exists but its kind or state forbids the action (a channel that is not running, a
     * connection that keeps no certificates, a tag that is not writable): change that first.
     */
    public static final class Conflict extends RequestFailure {
        public Conflict(String message) {
            super(message);
        }
    }

    /** The request is valid but its answer would exceed a configured limit: ask for less. */
    public static final class LimitExceeded extends RequestFailure {
        public LimitExceeded(String message) {
            super(message);
        }
    }

    /** A system the gateway relies on (QuestDB) was reached and refused or failed the operation. */
    public static final class DependencyFailed extends RequestFailure {
        public DependencyFailed(String message) {
            super(message);
        }
    }

    /** A system the gateway relies on (QuestDB, a device) cannot be reached now: try again later. */
    public static final class Unavailable extends RequestFailure {
        public Unavailable(String message) {
            super(message);
        }
    }

    /** A device did not answer in time: the action may or may not have taken effect. */
    public static final class NoAnswer extends RequestFailure {
        public NoAnswer(String message) {
            super(message);
        }
    }

    /**
     * The gateway itself failed (a directory of its own it cannot read): nothing the request can change;
     * the operator must look at the gateway's log.
     */
    public static final class Fault extends RequestFailure {
        public Fault(String message) {
            super(message);
        }
    }
}
