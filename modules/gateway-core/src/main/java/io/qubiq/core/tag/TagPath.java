package io.qubiq.core.tag;

import java.util.List;
import java.util.Optional;

/**
 * The address of a tag inside the gateway: segments separated by {@code /}, such as
 * {@code plant1/line2/oven/temperature}. Segments are non-empty and hold letters, digits and
 * {@code _ - . : #}; no whitespace, no leading, trailing or doubled slash. Paths are compared
 * case-sensitively, exactly as written in configuration.
 */
public record TagPath(String value) implements Comparable<TagPath> {

    public TagPath {
        String problem = problemWith(value);
        if (problem != null) {
            throw new IllegalArgumentException("invalid tag path \"" + value + "\": " + problem);
        }
    }

    public static TagPath of(String value) {
        return new TagPath(value);
    }

    /** Why {@code candidate} is not a valid tag path, or empty when it is one. */
    public static Optional<String> validate(String candidate) {
        return Optional.ofNullable(problemWith(candidate));
    }

    private static String problemWith(String candidate) {
        if (candidate == null || candidate.isEmpty()) {
            return "a tag path must not be empty";
        }
        if (candidate.startsWith("/") || candidate.endsWith("/")) {
            return "a tag path must not start or end with '/'";
        }
        for (String segment : candidate.split("/", -1)) {
            if (segment.isEmpty()) {
                return "a tag path must not contain an empty segment ('//')";
            }
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == ':' || c == '#')) {
                    return "character '" + c + "' is not allowed (letters, digits and _ - . : # only)";
                }
            }
        }
        return null;
    }

    public List<String> segments() {
        return List.of(value.split("/"));
    }

    /** The last segment: the tag's own name. */
    public String name() {
        int slash = value.lastIndexOf('/');
        return slash < 0 ? value : value.substring(slash + 1);
    }

    public Optional<TagPath> parent() {
        int slash = value.lastIndexOf('/');
        return slash < 0 ? Optional.empty() : Optional.of(new TagPath(value.substring(0, slash)));
    }

    /** The path one level down; {@code segment} is a single segment, so it may not contain '/'. */
    public TagPath child(String segment) {
        if (segment.indexOf('/') >= 0) {
            throw new IllegalArgumentException("child segment \"" + segment + "\" must not contain '/'");
        }
        return new TagPath(value + "/" + segment);
    }

    public boolean isUnder(TagPath ancestor) {
        return value.startsWith(ancestor.value + "/");
    }

    @Override
    public int compareTo(TagPath other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
