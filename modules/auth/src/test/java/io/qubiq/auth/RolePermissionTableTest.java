package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Every permission decision for every built-in role, as documented in {@link Role}. */
class RolePermissionTableTest {

    private static final String Y = "allow";
    private static final String N = "deny";

    /** Columns: VIEW_CONNECTIONS, EDIT_CONNECTIONS, VIEW_TAGS, WRITE_TAGS, VIEW_HISTORY, VIEW_AUDIT, MANAGE_USERS,
     * MANAGE_CONFIGURATION. */
    private static final Map<String, List<String>> TABLE = Map.of(
            "viewer",   List.of(Y, N, Y, N, Y, N, N, N),
            "operator", List.of(Y, N, Y, Y, Y, N, N, N),
            "engineer", List.of(Y, Y, Y, Y, Y, Y, N, Y),
            "admin",    List.of(Y, Y, Y, Y, Y, Y, Y, Y));

    static Stream<Arguments> decisions() {
        return TABLE.entrySet().stream().flatMap(row -> Stream.of(Permission.values())
                .map(p -> Arguments.of(row.getKey(), p, row.getValue().get(p.ordinal()).equals(Y))));
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @MethodSource("decisions")
    void builtInRoleDecidesEveryPermissionAsDocumented(String role, Permission permission, boolean allowed) {
        Roles roles = Roles.builtIn();
        Principal principal = new Principal("someone", roles.permissionsOf(List.of(role)), Principal.Via.SESSION, "k");

        AccessDecision decision = Authenticator.require(principal, permission);

        assertThat(decision.allowed()).isEqualTo(allowed);
        if (!allowed) {
            assertThat(decision.reason()).contains("someone").contains(permission.label());
        }
    }

    @Test
    void tableCoversEveryBuiltInRoleAndPermission() {
        assertThat(TABLE.keySet()).containsExactlyInAnyOrderElementsOf(Role.BUILT_IN.stream().map(Role::name).toList());
        TABLE.values().forEach(row -> assertThat(row).hasSize(Permission.values().length));
    }

    @Test
    void permissionsCarryTheConsoleLabels() {
        assertThat(Stream.of(Permission.values()).map(Permission::label)).containsExactly("View connections",
                "Edit connections", "View tags", "Write tags", "View history", "View audit", "Manage users",
                "Manage configuration");
    }

    @Test
    void customRoleGrantsExactlyItsPermissionsAndRolesCombine() {
        Roles roles = Roles.withCustom(Map.of("auditor", List.of(Permission.VIEW_AUDIT)));

        assertThat(roles.permissionsOf(List.of("auditor"))).containsExactly(Permission.VIEW_AUDIT);
        assertThat(roles.permissionsOf(List.of("auditor", "viewer"))).isEqualTo(Set.copyOf(EnumSet.of(
                Permission.VIEW_AUDIT, Permission.VIEW_CONNECTIONS, Permission.VIEW_TAGS, Permission.VIEW_HISTORY)));
        assertThat(roles.permissionsOf(List.of("no-such-role"))).isEmpty();
    }

    @Test
    void builtInRoleCannotBeRedefined() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Roles.withCustom(Map.of("admin", List.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("built in");
    }

    @Test
    void requestWithoutPrincipalIsDeniedAsNotSignedIn(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        AuthFixture f = new AuthFixture(dir);

        AccessDecision decision = f.auth.authenticator().require(java.util.Optional.empty(), Permission.VIEW_TAGS);

        assertThat(decision).isEqualTo(AccessDecision.deny("not signed in"));
    }
}
