package io.qubiq.tagbus.archfixture;

import io.qubiq.console.HttpConfig;

/** Deliberately breaks the module rules; used only to prove that ArchitectureTest can fail. */
public final class ForbiddenConsoleUse {

    public int port(HttpConfig config) {
        return config.port();
    }
}
