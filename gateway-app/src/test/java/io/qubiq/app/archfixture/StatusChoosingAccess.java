package io.qubiq.app.archfixture;

import io.javalin.http.HttpStatus;

/** Test-only: an application class that picks an HTTP status itself, which the architecture rule must flag. */
public final class StatusChoosingAccess {

    public int notFound() {
        return HttpStatus.NOT_FOUND.getCode();
    }
}
