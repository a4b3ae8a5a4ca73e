package io.qubiq.auth;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An API token as listed to its owner and to administrators; never the secret, which is shown once
 * at creation ({@link ApiTokens.Created}) and kept only as its SHA-256.
 *
 * @param id       public identifier ({@code tk_…}), used to revoke it and in the audit journal
 * @param owner    the user the token acts as; it has exactly that user's permissions
 * @param name     what the owner called it ("historian export script")
 * @param lastUsed when it last authenticated a request, to within a minute
 * @param expires  after this instant the token is refused; empty for no expiry
 */
public record ApiToken(String id, String owner, String name, Instant created, Optional<Instant> lastUsed,
                       Optional<Instant> expires) {

    public ApiToken {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(lastUsed, "lastUsed");
        Objects.requireNonNull(expires, "expires");
    }

    public boolean expiredAt(Instant now) {
        return expires.map(e -> !now.isBefore(e)).orElse(false);
    }

    ApiToken usedAt(Instant now) {
        return new ApiToken(id, owner, name, created, Optional.of(now), expires);
    }
}
