package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.TagPath;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopicTemplateTest {

    @Test
    void singleLevelWildcardsFillThePlaceholdersInOrder() {
        TopicTemplate template = new TopicTemplate("plant/+/+/temperature", "plant/{1}/{2}/temperature");
        List<String> captured = template.match("plant/hall1/oven3/temperature").orElseThrow();
        assertThat(captured).containsExactly("hall1", "oven3");
        assertThat(template.resolve(captured).tag()).contains(TagPath.of("plant/hall1/oven3/temperature"));
    }

    @Test
    void placeholdersMayBeReorderedOrRepeated() {
        TopicTemplate template = new TopicTemplate("+/+", "{2}/{1}/{2}");
        assertThat(template.resolve(template.match("a/b").orElseThrow()).tag()).contains(TagPath.of("b/a/b"));
    }

    @Test
    void multiLevelWildcardPlacesEveryLevelItMatched() {
        TopicTemplate template = new TopicTemplate("sensors/#", "s/{1}");
        assertThat(template.resolve(template.match("sensors/a/b/c").orElseThrow()).tag()).contains(TagPath.of("s/a/b/c"));
        assertThat(template.match("other/a")).isEmpty();
    }

    @Test
    void topicsThatDoNotMatchTheFilterAreNotMapped() {
        TopicTemplate template = new TopicTemplate("a/+/c", "x/{1}");
        assertThat(template.match("a/b/c/d")).isEmpty();
        assertThat(template.match("a/b")).isEmpty();
        assertThat(template.match("a/b/x")).isEmpty();
        assertThat(new TopicTemplate("#", "{1}").match("$SYS/broker")).isEmpty();
    }

    @Test
    void aTopicLevelThatIsNoTagPathSegmentIsAProblemNotAnException() {
        TopicTemplate template = new TopicTemplate("site/+", "site/{1}");
        TopicTemplate.Resolution empty = template.resolve(template.match("site/").orElseThrow());
        TopicTemplate.Resolution spaced = template.resolve(template.match("site/a b").orElseThrow());
        assertThat(empty.tag()).isEmpty();
        assertThat(empty.problem()).contains("empty");
        assertThat(spaced.tag()).isEmpty();
        assertThat(spaced.problem()).contains("\"a b\"");
    }

    @Test
    void filtersAndTemplatesAreCheckedAtConfigurationTime() {
        assertThat(TopicTemplate.filterProblem("a/#/b")).isPresent();
        assertThat(TopicTemplate.filterProblem("a/b+")).isPresent();
        assertThat(TopicTemplate.filterProblem("a/+/#")).isEmpty();
        assertThat(TopicTemplate.templateProblem("a/+", "a/{2}")).hasValueSatisfying(p -> assertThat(p).contains("{2}"));
        assertThat(TopicTemplate.templateProblem("a/+", "a/b")).hasValueSatisfying(p -> assertThat(p).contains("{1}"));
        assertThat(TopicTemplate.templateProblem("a/b", "a b")).isPresent();
        assertThat(TopicTemplate.templateProblem("a/+", "x/{1}")).isEmpty();
    }
}
