package io.qubiq.console;

import io.javalin.config.RoutesConfig;

/** One group of REST routes under {@code /api/v1}, registered when the console starts. */
public interface ApiRoutes {

    void register(RoutesConfig routes);
}
