package io.qubiq.auth;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A named set of permissions. Four roles are built in; configuration may add more under
 * {@code auth.roles} (see {@link AuthConfig#roles()}), but may not redefine a built-in one.
 *
 * <table>
 *   <caption>Built-in roles</caption>
 *   <tr><th>Role</th><th>Grants</th><th>For</th></tr>
 *   <tr><td>{@code viewer}</td><td>View connections, View tags, View history</td>
 *       <td>anyone who watches the plant</td></tr>
 *   <tr><td>{@code operator}</td><td>viewer + Write tags</td>
 *       <td>shift operators who change setpoints</td></tr>
 *   <tr><td>{@code engineer}</td><td>operator + Edit connections, View audit, Manage configuration</td>
 *       <td>engineers who configure connections and retry or drop quarantined items</td></tr>
 *   <tr><td>{@code admin}</td><td>every permission, including Manage users</td>
 *       <td>whoever administers the gateway</td></tr>
 * </table>
 *
 * @param name        lower-case letters, digits, {@code _} and {@code -}, starting with a letter
 * @param permissions what the role grants (an unmodifiable copy)
 */
public record Role(String name, Set<Permission> permissions) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,63}");

    public static final Role VIEWER = new Role("viewer",
            EnumSet.of(Permission.VIEW_CONNECTIONS, Permission.VIEW_TAGS, Permission.VIEW_HISTORY));
    public static final Role OPERATOR = new Role("operator", with(VIEWER, Permission.WRITE_TAGS));
    public static final Role ENGINEER = new Role("engineer",
            with(OPERATOR, Permission.EDIT_CONNECTIONS, Permission.VIEW_AUDIT,
                    Permission.MANAGE_CONFIGURATION));
    public static final Role ADMIN = new Role("admin", EnumSet.allOf(Permission.class));

    /** The built-in roles, least to most privileged. */
    public static final List<Role> BUILT_IN = List.of(VIEWER, OPERATOR, ENGINEER, ADMIN);

    public Role {
        Objects.requireNonNull(name, "name");
        if (!isValidName(name)) {
            throw new IllegalArgumentException("role name \"" + name + "\" must be lower-case letters, digits,"
                    + " _ or -, starting with a letter, at most 64 characters");
        }
        permissions = Collections.unmodifiableSet(permissions.isEmpty()
                ? EnumSet.noneOf(Permission.class) : EnumSet.copyOf(permissions));
    }

    public static boolean isValidName(String name) {
        return NAME.matcher(name).matches();
    }

    public boolean grants(Permission permission) {
        return permissions.contains(permission);
    }

    private static Set<Permission> with(Role base, Permission... more) {
        EnumSet<Permission> all = EnumSet.copyOf(base.permissions());
        all.addAll(List.of(more));
        return all;
    }
}
