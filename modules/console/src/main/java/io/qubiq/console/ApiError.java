package io.qubiq.console;

/**
 * A failed API request: the HTTP status and a message that names the parameter, value or object at
 * fault and what to do. Rendered as {@code {"status": 404, "error": "..."}}.
 */
public final class ApiError extends RuntimeException {

    private final int status;

    public ApiError(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public static ApiError badRequest(String message) {
        return new ApiError(400, message);
    }

    public static ApiError notFound(String message) {
        return new ApiError(404, message);
    }

    record Body(int status, String error) {
    }
}
