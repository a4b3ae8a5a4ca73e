package io.qubiq.config.revision;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines that differ between two versions of a text file, for people: what a revision changed, what
 * a rollback or an import would change. A longest-common-subsequence diff of the lines between the
 * common start and end; when that middle is too large to compare line by line (more than {@value
 * #MAX_CELLS} line pairs) it is shown as removed whole and added whole, which is still true.
 * Stateless.
 */
public final class LineDiff {

    static final long MAX_CELLS = 4_000_000;

    /** One line of a diff; line numbers are 1-based, 0 where the line is not in that version. */
    public record Line(Kind kind, int oldLine, int newLine, String text) {
    }

    public enum Kind { SAME, REMOVED, ADDED }

    private LineDiff() {
    }

    /** Every line of both versions in order, each marked same, removed or added. */
    public static List<Line> between(String before, String after) {
        List<String> a = before.lines().toList();
        List<String> b = after.lines().toList();
        int start = 0;
        while (start < a.size() && start < b.size() && a.get(start).equals(b.get(start))) {
            start++;
        }
        int endA = a.size();
        int endB = b.size();
        while (endA > start && endB > start && a.get(endA - 1).equals(b.get(endB - 1))) {
            endA--;
            endB--;
        }
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < start; i++) {
            lines.add(new Line(Kind.SAME, i + 1, i + 1, a.get(i)));
        }
        middle(a, b, start, endA, endB, lines);
        for (int i = endA, j = endB; i < a.size(); i++, j++) {
            lines.add(new Line(Kind.SAME, i + 1, j + 1, a.get(i)));
        }
        return lines;
    }

    private static void middle(List<String> a, List<String> b, int start, int endA, int endB, List<Line> out) {
        int n = endA - start;
        int m = endB - start;
        if ((long) n * m > MAX_CELLS) {
            for (int i = start; i < endA; i++) {
                out.add(new Line(Kind.REMOVED, i + 1, 0, a.get(i)));
            }
            for (int j = start; j < endB; j++) {
                out.add(new Line(Kind.ADDED, 0, j + 1, b.get(j)));
            }
            return;
        }
        // common[i][j]: the longest common subsequence of a[start+i..] and b[start+j..]
        int[][] common = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                common[i][j] = a.get(start + i).equals(b.get(start + j)) ? common[i + 1][j + 1] + 1
                        : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a.get(start + i).equals(b.get(start + j))) {
                out.add(new Line(Kind.SAME, start + i + 1, start + j + 1, a.get(start + i)));
                i++;
                j++;
            } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
                out.add(new Line(Kind.REMOVED, start + i + 1, 0, a.get(start + i))); // removed before added
                i++;
            } else {
                out.add(new Line(Kind.ADDED, 0, start + j + 1, b.get(start + j)));
                j++;
            }
        }
    }

    /**
     * The changed lines with {@code context} unchanged lines around each change, in the familiar
     * unified form ({@code -} removed, {@code +} added, {@code @@ -old +new @@} before each hunk); empty
     * when nothing changed.
     */
    public static String unified(String before, String after, int context) {
        List<Line> lines = between(before, after);
        boolean[] shown = new boolean[lines.size()];
        for (int k = 0; k < lines.size(); k++) {
            if (lines.get(k).kind() != Kind.SAME) {
                for (int c = Math.max(0, k - context); c <= Math.min(lines.size() - 1, k + context); c++) {
                    shown[c] = true;
                }
            }
        }
        StringBuilder out = new StringBuilder();
        int k = 0;
        while (k < lines.size()) {
            if (!shown[k]) {
                k++;
                continue;
            }
            int end = k;
            while (end < lines.size() && shown[end]) {
                end++;
            }
            out.append("@@ -").append(firstOld(lines, k, end)).append(" +").append(firstNew(lines, k, end))
                    .append(" @@\n");
            for (int h = k; h < end; h++) {
                Line line = lines.get(h);
                out.append(switch (line.kind()) {
                    case SAME -> ' ';
                    case REMOVED -> '-';
                    case ADDED -> '+';
                }).append(line.text()).append('\n');
            }
            k = end;
        }
        return out.toString();
    }

    private static int firstOld(List<Line> lines, int from, int to) {
        for (int h = from; h < to; h++) {
            if (lines.get(h).oldLine() > 0) {
                return lines.get(h).oldLine();
            }
        }
        return 0;
    }

    private static int firstNew(List<Line> lines, int from, int to) {
        for (int h = from; h < to; h++) {
            if (lines.get(h).newLine() > 0) {
                return lines.get(h).newLine();
            }
        }
        return 0;
    }
}
