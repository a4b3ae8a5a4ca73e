package io.qubiq.console;

import io.qubiq.auth.Permission;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** Permissions as the API writes them: the configuration names, such as {@code view_connections}. */
final class PermissionNames {

    private PermissionNames() {
    }

    static String of(Permission permission) {
        return permission.name().toLowerCase(Locale.ROOT);
    }

    /** In the enum's order, whatever the collection's. */
    static List<String> of(Collection<Permission> permissions) {
        return java.util.Arrays.stream(Permission.values()).filter(permissions::contains)
                .map(PermissionNames::of).toList();
    }
}
