package io.qubiq.app.config;

import io.qubiq.config.ConfigSchema;
import io.qubiq.config.ConfigTree;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Masks the values of secret keys in configuration text, so a line diff of the file can be answered:
 * every {@code key: value} whose key is the name of a secret key anywhere in the configuration's
 * declarations (the schema's {@code writeOnly} keys: {@code password}, {@code admin_password}, …), in
 * block or flow style, has its value replaced by {@link ConfigTree#MASK}, unless the value is a
 * {@code ${VARIABLE}} or {@code ${secret:NAME}} reference, which names no secret's value. The rest of the key's line is masked, wherever
 * such a key appears, whichever section it is in: more than needed (in flow style the keys after it on
 * the line), never less for a value on the key's own line. A secret written as a multi-line block
 * scalar would show its further lines: write secrets as {@code ${VARIABLE}}.
 *
 * <p>Immutable; safe to share.
 */
final class SecretText {

    private final Pattern secretValue;
    private final Set<String> names;

    private SecretText(Set<String> names) {
        this.names = Set.copyOf(names);
        String alternatives = names.stream().map(Pattern::quote).collect(Collectors.joining("|"));
        // a key (optionally quoted) at a line's start, after "- ", "{" or ","; then the rest of its line
        this.secretValue = Pattern.compile("((?:^|[\\s{,])[\"']?(?:" + alternatives + ")[\"']?[ \\t]*:[ \\t]+)(\\S.*)$",
                Pattern.MULTILINE);
    }

    /** The masker for every secret key the schema of {@link GatewayConfig} declares. */
    static SecretText of(Map<String, Object> schema) {
        Set<String> names = new TreeSet<>();
        collect(schema, names);
        return new SecretText(names);
    }

    private static void collect(Object node, Set<String> names) {
        if (node instanceof Map<?, ?> map) {
            if (map.get("properties") instanceof Map<?, ?> properties) {
                properties.forEach((name, property) -> {
                    if (property instanceof Map<?, ?> p && Boolean.TRUE.equals(p.get("writeOnly"))) {
                        names.add(String.valueOf(name));
                    }
                });
            }
            map.values().forEach(value -> collect(value, names));
        } else if (node instanceof List<?> list) {
            list.forEach(value -> collect(value, names));
        }
    }

    /** The names of the secret keys ({@code password}, {@code admin_password}, …). */
    Set<String> names() {
        return names;
    }

    /** The text with every secret key's value masked. */
    String mask(String text) {
        Matcher m = secretValue.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = m.group(2);
            boolean reference = value.strip().matches(
                    "[\"']?\\$\\{(?:secret:[A-Za-z0-9_.\\-]+|[A-Za-z_][A-Za-z0-9_]*)}[\"']?[ \\t]*[,}]*[ \\t]*(#.*)?");
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + (reference ? value : ConfigTree.MASK)));
        }
        m.appendTail(out);
        return out.toString();
    }
}
