package io.qubiq.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Expands environment references inside scalar values: {@code ${NAME}} takes the variable's value,
 * {@code ${NAME:-fallback}} takes the fallback when the variable is unset or empty, and
 * {@code $${} writes a literal {@code ${}. Any other {@code $} is literal. Fallbacks are taken as
 * written (no nested references). {@code ${secret:NAME}} takes the value of the secret called NAME
 * from the secrets store ({@link SecretLookup}). Keys are never expanded, and an expanded value is never
 * parsed as YAML again: it is the scalar's text. The environment and the secrets are injected, so tests
 * do not read the real ones. Stateless apart from those functions; safe to share.
 */
final class EnvExpander {

    /**
     * The outcome for one scalar: the text, or the reasons it could not be expanded; {@code variables}
     * names every environment variable the text refers to, in order, whether set or not, {@code secrets}
     * every secret.
     */
    record Expansion(String text, boolean expanded, List<String> errors, List<String> variables,
                     List<String> secrets) {
        public Expansion {
            errors = List.copyOf(errors);
            variables = List.copyOf(variables);
            secrets = List.copyOf(secrets);
        }

        Expansion(String text, boolean expanded, List<String> errors, List<String> variables) {
            this(text, expanded, errors, variables, List.of());
        }

        boolean ok() {
            return errors.isEmpty();
        }
    }

    static final String SECRET = "secret:";

    private final Function<String, Optional<String>> environment;
    private final SecretLookup secrets;

    EnvExpander(Function<String, Optional<String>> environment) {
        this(environment, SecretLookup.none());
    }

    EnvExpander(Function<String, Optional<String>> environment, SecretLookup secrets) {
        this.environment = environment;
        this.secrets = secrets;
    }

    Expansion expand(String text) {
        if (text.indexOf('$') < 0) {
            return new Expansion(text, false, List.of(), List.of());
        }
        StringBuilder out = new StringBuilder(text.length());
        List<String> errors = new ArrayList<>();
        List<String> variables = new ArrayList<>();
        List<String> secretNames = new ArrayList<>();
        boolean expanded = false;
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (text.startsWith("${", i)) {
                int close = text.indexOf('}', i + 2);
                if (close < 0) {
                    errors.add("`${` is not closed by `}` (write `$${` for a literal `${`)");
                    break;
                }
                expanded = true;
                String reference = text.substring(i + 2, close);
                if (reference.startsWith(SECRET)) {
                    String name = reference.substring(SECRET.length());
                    secretNames.add(name);
                    out.append(secret(name, errors));
                } else {
                    int separator = reference.indexOf(":-");
                    variables.add(separator < 0 ? reference : reference.substring(0, separator));
                    out.append(resolve(reference, errors));
                }
                i = close + 1;
            } else {
                out.append(text.charAt(i++));
            }
        }
        return new Expansion(out.toString(), expanded, errors, variables, secretNames);
    }

    private String secret(String name, List<String> errors) {
        Optional<String> value = secrets.secret(name);
        if (value.isEmpty()) {
            errors.add("secret " + name + " is not in the gateway's secrets store (<data dir>/secrets): enter the"
                    + " value again in the console or the API, or write it here as a ${VARIABLE} reference");
            return "";
        }
        return value.get();
    }

    private String resolve(String reference, List<String> errors) {
        int separator = reference.indexOf(":-");
        String name = separator < 0 ? reference : reference.substring(0, separator);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            errors.add("`${" + reference + "}` does not name an environment variable"
                    + " (letters, digits and `_`; write `$${` for a literal `${`)");
            return "";
        }
        Optional<String> value = environment.apply(name);
        if (separator >= 0) {
            return value.filter(v -> !v.isEmpty()).orElse(reference.substring(separator + 2));
        }
        if (value.isEmpty()) {
            errors.add("environment variable " + name + " is not set (write `${" + name
                    + ":-fallback}` to give a default)");
            return "";
        }
        return value.get();
    }
}
