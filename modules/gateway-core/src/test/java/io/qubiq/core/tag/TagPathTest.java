package io.qubiq.core.tag;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TagPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"temp", "plant1/line2/oven/temperature", "a_b-c.d:e#f/x", "Ofen1/Temperatur",
            "plant1/line2/PV:01", "42"})
    void acceptsSegmentsOfLettersDigitsAndTheAllowedPunctuation(String candidate) {
        assertThat(TagPath.validate(candidate)).isEmpty();
        assertThat(TagPath.of(candidate).value()).isEqualTo(candidate);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''                 | a tag path must not be empty",
            "/plant1/temp       | a tag path must not start or end with '/'",
            "plant1/temp/       | a tag path must not start or end with '/'",
            "/                  | a tag path must not start or end with '/'",
            "plant1//temp       | a tag path must not contain an empty segment ('//')",
            "'plant1/oven temp' | character ' ' is not allowed (letters, digits and _ - . : # only)",
            "plant1/temp;drop   | character ';' is not allowed (letters, digits and _ - . : # only)",
            "plant1\\temp       | character '\\' is not allowed (letters, digits and _ - . : # only)",
    })
    void rejectsAnInvalidPathNamingTheProblem(String candidate, String problem) {
        assertThat(TagPath.validate(candidate)).contains(problem);
        assertThatThrownBy(() -> TagPath.of(candidate))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid tag path \"" + candidate + "\": " + problem);
    }

    @Test
    void rejectsNullAsEmpty() {
        assertThat(TagPath.validate(null)).contains("a tag path must not be empty");
        assertThatThrownBy(() -> new TagPath(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid tag path \"null\": a tag path must not be empty");
    }

    @Test
    void rejectsWhitespaceOtherThanSpaces() {
        assertThat(TagPath.validate("plant1/\ttemp")).isPresent();
        assertThat(TagPath.validate("plant1/temp\n")).isPresent();
    }

    @Test
    void splitsIntoSegmentsAndNamesTheLastOne() {
        TagPath path = TagPath.of("plant1/line2/oven/temperature");

        assertThat(path.segments()).containsExactly("plant1", "line2", "oven", "temperature");
        assertThat(path.name()).isEqualTo("temperature");
        assertThat(TagPath.of("temp").segments()).containsExactly("temp");
        assertThat(TagPath.of("temp").name()).isEqualTo("temp");
    }

    @Test
    void parentDropsTheLastSegmentAndARootHasNone() {
        assertThat(TagPath.of("plant1/line2/oven").parent()).contains(TagPath.of("plant1/line2"));
        assertThat(TagPath.of("plant1").parent()).isEmpty();
    }

    @Test
    void childAppendsAValidatedSegment() {
        assertThat(TagPath.of("plant1/line2").child("oven")).isEqualTo(TagPath.of("plant1/line2/oven"));
        assertThatThrownBy(() -> TagPath.of("plant1").child("oven temp"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("character ' ' is not allowed");
        assertThatThrownBy(() -> TagPath.of("plant1").child(""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TagPath.of("plant1").child("line2/oven"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not contain '/'");
    }

    @Test
    void segmentsAreAnImmutableList() {
        assertThatThrownBy(() -> TagPath.of("a/b").segments().set(0, "x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void isUnderHoldsForStrictDescendantsByWholeSegments() {
        TagPath line = TagPath.of("plant1/line2");

        assertThat(TagPath.of("plant1/line2/oven").isUnder(line)).isTrue();
        assertThat(TagPath.of("plant1/line2/oven/temp").isUnder(line)).isTrue();
        assertThat(TagPath.of("plant1/line2/oven").isUnder(TagPath.of("plant1"))).isTrue();
        assertThat(line.isUnder(line)).isFalse();
        assertThat(TagPath.of("plant1/line20/oven").isUnder(line)).isFalse();
        assertThat(TagPath.of("plant1").isUnder(line)).isFalse();
    }

    @Test
    void comparesCaseSensitivelyAsWritten() {
        assertThat(TagPath.of("Plant1/temp")).isNotEqualTo(TagPath.of("plant1/temp"));
        List<TagPath> paths = new ArrayList<>(List.of(TagPath.of("b"), TagPath.of("a/z"), TagPath.of("a")));
        paths.sort(null);
        assertThat(paths).containsExactly(TagPath.of("a"), TagPath.of("a/z"), TagPath.of("b"));
        assertThat(TagPath.of("plant1/temp")).hasToString("plant1/temp");
    }
}
