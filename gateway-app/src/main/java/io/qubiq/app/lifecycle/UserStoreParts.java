package io.qubiq.app.lifecycle;

import io.qubiq.auth.Auth;
import io.qubiq.auth.StoreDamage;
import io.qubiq.core.lifecycle.DegradedPart;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The user and API-token stores as /health parts: {@code user-store} is DAMAGED, with the file, what was wrong
 * and the recovery, while a store found damaged at start keeps sign-in refused. Fixed for the life of the
 * process (only {@code reset-admin}, gateway stopped, repairs it); safe from any thread.
 */
public final class UserStoreParts implements DegradedPartSource {

    public static final String PART = "user-store";

    private final List<DegradedPart> parts;

    public UserStoreParts(Auth auth) {
        this.parts = auth.damage().isEmpty() ? List.of() : List.of(new DegradedPart(PART, "DAMAGED",
                auth.damage().stream().map(StoreDamage::message).collect(Collectors.joining(" "))));
    }

    @Override
    public List<DegradedPart> degradedParts() {
        return parts;
    }
}
