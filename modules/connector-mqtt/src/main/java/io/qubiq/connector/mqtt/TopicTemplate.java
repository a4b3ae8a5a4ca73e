package io.qubiq.connector.mqtt;

import io.qubiq.core.tag.TagPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps the topics matched by one subscription's filter to tag paths. A filter without wildcards
 * maps to its fixed tag; in a filter with wildcards, the tag template's {@code {1}}, {@code {2}}, ...
 * take the topic levels matched by the first, second, ... wildcard ({@code +} one level, {@code #}
 * every remaining level joined by {@code /}). For {@code plant/+/+/temperature} and the template
 * {@code plant/{1}/{2}/temperature}, topic {@code plant/hall1/oven3/temperature} maps to tag
 * {@code plant/hall1/oven3/temperature}. A topic level that is not a valid tag path segment yields a
 * problem (the message is then counted as malformed). Immutable; thread-safe.
 */
final class TopicTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+)}");

    /** A resolved tag path, or why the topic could not be mapped to one. */
    record Resolution(Optional<TagPath> tag, String problem) {
        static Resolution of(TagPath tag) {
            return new Resolution(Optional.of(tag), "");
        }

        static Resolution failed(String problem) {
            return new Resolution(Optional.empty(), problem);
        }
    }

    private final List<String> filterLevels;
    private final String template;

    TopicTemplate(String filter, String template) {
        this.filterLevels = List.of(filter.split("/", -1));
        this.template = template;
    }

    /** The levels matched by the filter's wildcards, in order, or empty when the topic does not match. */
    Optional<List<String>> match(String topic) {
        String[] levels = topic.split("/", -1);
        List<String> captured = new ArrayList<>();
        for (int i = 0; i < filterLevels.size(); i++) {
            String level = filterLevels.get(i);
            if (level.equals("#")) {
                if (i == 0 && topic.startsWith("$")) {
                    return Optional.empty();
                }
                captured.add(i >= levels.length ? "" : String.join("/", List.of(levels).subList(i, levels.length)));
                return Optional.of(captured);
            }
            if (i >= levels.length) {
                return Optional.empty();
            }
            if (level.equals("+")) {
                if (i == 0 && levels[0].startsWith("$")) {
                    return Optional.empty();
                }
                captured.add(levels[i]);
            } else if (!level.equals(levels[i])) {
                return Optional.empty();
            }
        }
        return levels.length == filterLevels.size() ? Optional.of(captured) : Optional.empty();
    }

    /** The tag path for the wildcard levels {@code captured} (see {@link #match}). */
    Resolution resolve(List<String> captured) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            int index = Integer.parseInt(matcher.group(1));
            if (index < 1 || index > captured.size()) {
                return Resolution.failed("the template refers to wildcard {" + index + "}, the filter has "
                        + captured.size());
            }
            String level = captured.get(index - 1);
            Optional<String> problem = segmentsProblem(level);
            if (problem.isPresent()) {
                return Resolution.failed("topic level \"" + level + "\" (wildcard {" + index + "}) cannot be part of a"
                        + " tag path: " + problem.get());
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(level));
        }
        matcher.appendTail(out);
        String path = out.toString();
        return TagPath.validate(path).map(p -> Resolution.failed("\"" + path + "\" is not a tag path: " + p))
                .orElseGet(() -> Resolution.of(TagPath.of(path)));
    }

    /** The tag path of a subscription without wildcards. */
    Optional<TagPath> fixedTag() {
        return wildcards(filterLevels) == 0 ? Optional.of(TagPath.of(template)) : Optional.empty();
    }

    private static Optional<String> segmentsProblem(String levels) {
        if (levels.isEmpty()) {
            return Optional.of("it is empty");
        }
        return TagPath.validate(levels);
    }

    private static int wildcards(List<String> levels) {
        return (int) levels.stream().filter(l -> l.equals("+") || l.equals("#")).count();
    }

    /** Why {@code filter} is not a valid MQTT topic filter, or empty when it is one. */
    static Optional<String> filterProblem(String filter) {
        if (filter == null || filter.isEmpty()) {
            return Optional.of("a topic filter must not be empty");
        }
        String[] levels = filter.split("/", -1);
        for (int i = 0; i < levels.length; i++) {
            String level = levels[i];
            if (level.contains("#") && (!level.equals("#") || i != levels.length - 1)) {
                return Optional.of("# must be a whole topic level and the last one, was \"" + filter + "\"");
            }
            if (level.contains("+") && !level.equals("+")) {
                return Optional.of("+ must be a whole topic level, was \"" + filter + "\"");
            }
        }
        if (filter.indexOf('\u0000') >= 0) {
            return Optional.of("a topic filter must not contain the NUL character");
        }
        return Optional.empty();
    }

    /** Why {@code topic} cannot be published to (empty, wildcards), or empty when it can. */
    static Optional<String> topicNameProblem(String topic) {
        if (topic.isEmpty()) {
            return Optional.of("a topic must not be empty");
        }
        if (topic.contains("+") || topic.contains("#")) {
            return Optional.of("a topic to publish to must not contain the wildcards + or #, was \"" + topic + "\"");
        }
        return Optional.empty();
    }

    /** Why {@code template} cannot map the topics of {@code filter} to tag paths, or empty. */
    static Optional<String> templateProblem(String filter, String template) {
        int wildcards = wildcards(List.of(filter.split("/", -1)));
        Matcher matcher = PLACEHOLDER.matcher(template);
        int used = 0;
        while (matcher.find()) {
            int index = Integer.parseInt(matcher.group(1));
            if (index < 1 || index > wildcards) {
                return Optional.of("{" + index + "} refers to a wildcard the topic filter \"" + filter + "\" does not have"
                        + " (it has " + wildcards + ")");
            }
            used++;
        }
        if (wildcards > 0 && used == 0) {
            return Optional.of("the topic filter \"" + filter + "\" has wildcards, so the tag must be a template using"
                    + " {1}" + (wildcards > 1 ? " to {" + wildcards + "}" : "") + ", such as a/{1}");
        }
        String sample = matcher.replaceAll("x");
        return TagPath.validate(sample).map(problem -> "\"" + template + "\" is not a tag path template: " + problem);
    }
}
