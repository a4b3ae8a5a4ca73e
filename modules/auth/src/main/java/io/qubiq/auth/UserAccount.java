package io.qubiq.auth;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A local user as the console shows it; the password hash stays inside {@link UserStore}.
 *
 * @param name            lower case: letters, digits, {@code . _ @ -}; 1 to 64 characters
 * @param roles           role names, in the order given
 * @param disabled        a disabled user cannot sign in and their API tokens are refused
 * @param created         when the user was created
 * @param passwordChanged when the password was last set
 */
public record UserAccount(String name, List<String> roles, boolean disabled, Instant created,
                          Instant passwordChanged) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._@-]{0,63}");

    public UserAccount {
        Objects.requireNonNull(name, "name");
        roles = List.copyOf(roles);
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(passwordChanged, "passwordChanged");
    }

    /**
     * The canonical form of a user name as typed at sign-in (trimmed, lower case).
     *
     * @throws InvalidNameException if it breaks the naming rules
     */
    public static String canonicalName(String typed) {
        String name = typed.strip().toLowerCase(Locale.ROOT);
        if (!NAME.matcher(name).matches()) {
            throw new InvalidNameException("a user name is 1 to 64 characters: letters, digits, '.', '_', '@' or '-',"
                    + " starting with a letter or digit");
        }
        return name;
    }

    UserAccount withRoles(List<String> value) {
        return new UserAccount(name, value, disabled, created, passwordChanged);
    }

    UserAccount withDisabled(boolean value) {
        return new UserAccount(name, roles, value, created, passwordChanged);
    }

    UserAccount withPasswordChanged(Instant value) {
        return new UserAccount(name, roles, disabled, created, value);
    }
}
