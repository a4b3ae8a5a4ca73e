package io.qubiq.auth;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The rules every new password obeys, wherever it is set (first-start setup, {@code auth.admin_password},
 * user creation, a password change or reset, {@code reset-admin}): at least {@code minLength} and at most
 * {@link #MAX_LENGTH} characters; not one of the common passwords shipped in {@value #COMMON_RESOURCE}
 * (compared case-insensitively, after trimming); not the user's name, and not containing it when the name
 * has at least {@value #NAME_MIN_FOR_CONTAINS} characters (also case-insensitively).
 *
 * <p>The list is read once per JVM, on first use. Immutable and thread-safe.
 */
public final class PasswordPolicy {

    /** Longer passwords are refused, so nobody can make the server hash megabytes. */
    public static final int MAX_LENGTH = 1024;
    static final String COMMON_RESOURCE = "common-passwords.txt";
    /** Shorter names are only refused as the whole password: "al" inside a password says little. */
    static final int NAME_MIN_FOR_CONTAINS = 3;

    private final int minLength;

    public PasswordPolicy(int minLength) {
        if (minLength < 1 || minLength > MAX_LENGTH) {
            throw new IllegalArgumentException("minimum password length must be 1.." + MAX_LENGTH);
        }
        this.minLength = minLength;
    }

    public int minLength() {
        return minLength;
    }

    /**
     * Refuses {@code password} for the user {@code user} when it breaks a rule.
     *
     * @throws PasswordRejectedException saying which rule and what to do instead
     */
    public void check(String user, String password) {
        Optional<String> problem = problem(user, password);
        if (problem.isPresent()) {
            throw new PasswordRejectedException(problem.get());
        }
    }

    /** What is wrong with {@code password} for {@code user}, in a sentence; empty when it may be used. */
    public Optional<String> problem(String user, String password) {
        int length = password.codePointCount(0, password.length());
        if (length < minLength) {
            return Optional.of("a password needs at least " + minLength + " characters; this one has " + length);
        }
        if (length > MAX_LENGTH) {
            return Optional.of("a password may have at most " + MAX_LENGTH + " characters");
        }
        String folded = password.strip().toLowerCase(Locale.ROOT);
        if (Common.LIST.contains(folded)) {
            return Optional.of("this password is on the list of common passwords that are guessed first;"
                    + " choose a longer phrase of unrelated words");
        }
        String name = user == null ? "" : user.strip().toLowerCase(Locale.ROOT);
        if (!name.isEmpty() && (folded.equals(name)
                || name.length() >= NAME_MIN_FOR_CONTAINS && folded.contains(name))) {
            return Optional.of("a password must not contain the user name \"" + user.strip()
                    + "\"; choose one without it");
        }
        return Optional.empty();
    }

    /** How many common passwords the list holds (for tests). */
    static int commonCount() {
        return Common.LIST.size();
    }

    /** The list, loaded on first use. */
    private static final class Common {
        static final Set<String> LIST = load();

        private static Set<String> load() {
            Set<String> list = new HashSet<>();
            try (InputStream in = PasswordPolicy.class.getResourceAsStream(COMMON_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the resource " + COMMON_RESOURCE + " is missing from the build");
                }
                BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    String entry = line.strip();
                    if (!entry.isEmpty() && !entry.startsWith("#")) {
                        list.add(entry.toLowerCase(Locale.ROOT));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + COMMON_RESOURCE, e);
            }
            return Set.copyOf(list);
        }
    }
}
