package io.qubiq.config.revision;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LineDiffTest {

    @Test
    void aChangedLineShowsAsRemovedAndAddedWithItsContext() {
        String before = "a\nb\nc\nd\ne\nf\n";
        String after = "a\nb\nc\nD\ne\nf\ng\n";
        assertThat(LineDiff.unified(before, after, 1)).isEqualTo("@@ -3 +3 @@\n c\n-d\n+D\n e\n f\n+g\n");
        assertThat(LineDiff.unified("a\nb\nc\nd\ne\nf\ng\n", "A\nb\nc\nd\ne\nf\nG\n", 1))
                .as("changes further apart than twice the context are separate hunks")
                .isEqualTo("@@ -1 +1 @@\n-a\n+A\n b\n@@ -6 +6 @@\n f\n-g\n+G\n");
    }

    @Test
    void identicalTextsHaveNoDiff() {
        assertThat(LineDiff.unified("a\nb\n", "a\nb\n", 3)).isEmpty();
    }

    @Test
    void everyLineOfBothVersionsIsAccountedForInOrder() {
        List<LineDiff.Line> lines = LineDiff.between("x\na\ny\n", "a\nz\n");
        assertThat(lines).extracting(LineDiff.Line::kind, LineDiff.Line::text).containsExactly(
                org.assertj.core.groups.Tuple.tuple(LineDiff.Kind.REMOVED, "x"),
                org.assertj.core.groups.Tuple.tuple(LineDiff.Kind.SAME, "a"),
                org.assertj.core.groups.Tuple.tuple(LineDiff.Kind.REMOVED, "y"),
                org.assertj.core.groups.Tuple.tuple(LineDiff.Kind.ADDED, "z"));
    }

    @Test
    void aMiddleTooLargeToCompareLineByLineIsShownRemovedAndAddedWhole() {
        StringBuilder a = new StringBuilder("head\n");
        StringBuilder b = new StringBuilder("head\n");
        for (int i = 0; i < 2_100; i++) {
            a.append("a").append(i).append('\n');
            b.append("b").append(i).append('\n');
        }
        List<LineDiff.Line> lines = LineDiff.between(a.toString(), b.toString());
        assertThat(lines).hasSize(1 + 4_200);
        assertThat(lines.get(1).kind()).isEqualTo(LineDiff.Kind.REMOVED);
        assertThat(lines.get(lines.size() - 1).kind()).isEqualTo(LineDiff.Kind.ADDED);
    }
}
