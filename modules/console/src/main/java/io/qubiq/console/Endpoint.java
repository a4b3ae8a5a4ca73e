package io.qubiq.console;

import java.util.Objects;

/**
 * One route of the API as it is registered: what {@code /api/v1/openapi.json} describes and what the
 * permission tests walk.
 *
 * @param method  {@code GET}, {@code POST}, {@code PUT} or {@code DELETE}
 * @param path    Javalin's path with {@code {param}} (or {@code <param>} for one that may contain {@code /})
 * @param access  who may call it
 * @param summary one line for the API description
 * @param reply   what it answers on success and the failures it may answer instead
 */
public record Endpoint(String method, String path, Access access, String summary, Reply<?> reply) {

    public Endpoint {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(access, "access");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(reply, "reply");
    }

    /** Whether the request changes state (and so needs the CSRF token when made with a session). */
    public boolean changesState() {
        return !method.equals("GET");
    }
}
