package io.qubiq.auth;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Who is making a request, as resolved by {@link Authenticator} for this request only: the user, the
 * permissions their roles grant right now, and the credential that proved it.
 *
 * @param user         the user name
 * @param permissions  granted by the user's current roles
 * @param via          how the request authenticated
 * @param credentialId the session key (SHA-256 of the id) or the API token id: safe to log and audit
 */
public record Principal(String user, Set<Permission> permissions, Via via, String credentialId) {

    public enum Via { SESSION, API_TOKEN }

    public Principal {
        Objects.requireNonNull(user, "user");
        permissions = Collections.unmodifiableSet(permissions.isEmpty()
                ? EnumSet.noneOf(Permission.class) : EnumSet.copyOf(permissions));
        Objects.requireNonNull(via, "via");
        Objects.requireNonNull(credentialId, "credentialId");
    }

    public boolean has(Permission permission) {
        return permissions.contains(permission);
    }
}
