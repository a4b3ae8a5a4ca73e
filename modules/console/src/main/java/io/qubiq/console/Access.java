package io.qubiq.console;

import io.qubiq.auth.Permission;
import java.util.Objects;
import java.util.Optional;

/**
 * Who may call an endpoint: anyone ({@link #PUBLIC}: the sign-in and setup endpoints, the OpenAPI
 * description, {@code /health}), any signed-in user ({@link #SIGNED_IN}: their own session and
 * tokens, the event stream), or a user holding one {@link Permission}. Every endpoint declares
 * exactly one; {@link RequestGuard} enforces it before the handler runs.
 */
public final class Access {

    public static final Access PUBLIC = new Access("public", Optional.empty());
    public static final Access SIGNED_IN = new Access("signed_in", Optional.empty());

    private final String name;
    private final Optional<Permission> permission;

    private Access(String name, Optional<Permission> permission) {
        this.name = name;
        this.permission = permission;
    }

    public static Access to(Permission permission) {
        Objects.requireNonNull(permission, "permission");
        return new Access(PermissionNames.of(permission), Optional.of(permission));
    }

    /** {@code public}, {@code signed_in} or the permission's configuration name such as {@code edit_connections}. */
    public String name() {
        return name;
    }

    public Optional<Permission> permission() {
        return permission;
    }

    public boolean isPublic() {
        return this == PUBLIC;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Access access && access.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
