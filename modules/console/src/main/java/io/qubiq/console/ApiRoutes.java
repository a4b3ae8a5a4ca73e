package io.qubiq.console;

/** One group of REST routes under {@code /api/v1}, registered when the console starts. */
public interface ApiRoutes {

    void register(Api api);
}
