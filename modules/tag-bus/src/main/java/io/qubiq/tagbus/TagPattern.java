package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A tag pattern, as storage rules and pipeline triggers write them. Without wildcards it names a tag and everything beneath it (by
 * whole segments); with them, {@code *} matches any characters within one segment and {@code **}
 * any characters across segments. Immutable and thread-safe.
 */
public final class TagPattern implements TagFilter {

    private final String text;
    private final Pattern regex;

    private TagPattern(String text, Pattern regex) {
        this.text = text;
        this.regex = regex;
    }

    /** @throws IllegalArgumentException naming the problem when {@code text} is not a valid pattern */
    public static TagPattern compile(String text) {
        problemWith(text).ifPresent(problem -> {
            throw new IllegalArgumentException("invalid tag pattern \"" + text + "\": " + problem);
        });
        if (text.indexOf('*') < 0) {
            return new TagPattern(text, Pattern.compile(Pattern.quote(text) + "(?:/.*)?"));
        }
        StringBuilder regex = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '*' && i + 1 < text.length() && text.charAt(i + 1) == '*') {
                regex.append(".*");
                i += 2;
            } else if (c == '*') {
                regex.append("[^/]*");
                i++;
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
                i++;
            }
        }
        return new TagPattern(text, Pattern.compile(regex.toString()));
    }

    /** Why {@code text} is not a valid pattern, or empty when it is. */
    public static Optional<String> problemWith(String text) {
        if (text == null || text.isBlank()) {
            return Optional.of("a tag pattern must not be empty");
        }
        if (text.contains("***")) {
            return Optional.of("at most two * in a row");
        }
        String probe = text.replace("**", "x").replace('*', 'x');
        return TagPath.validate(probe).map(problem -> problem.replace("tag path", "tag pattern"));
    }

    public boolean matches(TagPath path) {
        return regex.matcher(path.value()).matches();
    }

    @Override
    public boolean accepts(TagPath path) {
        return matches(path);
    }

    @Override
    public String toString() {
        return text;
    }
}
