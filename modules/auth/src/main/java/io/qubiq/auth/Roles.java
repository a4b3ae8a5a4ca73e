package io.qubiq.auth;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The roles this gateway knows: the built-in ones plus the custom roles from configuration.
 * Immutable; safe to share between threads. Permission sets of role combinations are computed
 * on each call from {@link EnumSet}s, which costs nanoseconds.
 */
public final class Roles {

    private final Map<String, Role> byName;

    private Roles(Map<String, Role> byName) {
        this.byName = Collections.unmodifiableMap(byName);
    }

    /** Only the built-in roles. */
    public static Roles builtIn() {
        return withCustom(Map.of());
    }

    /**
     * The built-in roles plus {@code custom} (name to permissions, as in {@link AuthConfig#roles()}).
     *
     * @throws IllegalArgumentException if a custom role has an invalid name or redefines a built-in one
     */
    public static Roles withCustom(Map<String, List<Permission>> custom) {
        Map<String, Role> all = new LinkedHashMap<>();
        for (Role role : Role.BUILT_IN) {
            all.put(role.name(), role);
        }
        custom.forEach((name, permissions) -> {
            if (all.containsKey(name)) {
                throw new IllegalArgumentException("role \"" + name + "\" is built in and cannot be redefined");
            }
            all.put(name, new Role(name, Set.copyOf(permissions)));
        });
        return new Roles(all);
    }

    public Optional<Role> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public Collection<Role> all() {
        return byName.values();
    }

    /** Every permission granted by any of {@code roleNames}; unknown names grant nothing. */
    public Set<Permission> permissionsOf(Collection<String> roleNames) {
        EnumSet<Permission> granted = EnumSet.noneOf(Permission.class);
        for (String name : roleNames) {
            Role role = byName.get(name);
            if (role != null) {
                granted.addAll(role.permissions());
            }
        }
        return granted;
    }

    /** The first of {@code roleNames} that is not defined here. */
    public Optional<String> firstUnknown(Collection<String> roleNames) {
        return roleNames.stream().filter(name -> !byName.containsKey(name)).findFirst();
    }
}
