package io.qubiq.historian.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.tag.TagPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryRequestTest {

    static Map<String, List<String>> params(String... pairs) {
        java.util.LinkedHashMap<String, List<String>> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.computeIfAbsent(pairs[i], k -> new java.util.ArrayList<>()).add(pairs[i + 1]);
        }
        return map;
    }

    @Test
    void rawRequestReadsTagsAndTimes() {
        HistoryRequest request = HistoryRequest.parse(params("tags", "a/b,c/d", "tags", "e",
                "from", "2026-01-01T00:00:00Z", "to", "2026-01-01T01:00:00Z"));

        assertThat(request.tags()).containsExactly(TagPath.of("a/b"), TagPath.of("c/d"), TagPath.of("e"));
        assertThat(request.from()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(request.interval()).isEmpty();
        assertThat(request.aggregation()).isEmpty();
    }

    @Test
    void aggregateRequestReadsIntervalAndAggregation() {
        HistoryRequest request = HistoryRequest.parse(params("tags", "a/b", "from", "2026-01-01T00:00:00Z",
                "to", "2026-01-02T00:00:00Z", "interval", "10s", "agg", "AVG"));

        assertThat(request.interval()).contains(Duration.ofSeconds(10));
        assertThat(request.aggregation()).contains(Aggregation.AVG);
        assertThat(HistoryRequest.interval("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(HistoryRequest.interval("1m")).isEqualTo(Duration.ofMinutes(1));
        assertThat(HistoryRequest.interval("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(HistoryRequest.interval("1d")).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void eachMalformedParameterIsNamedInItsError() {
        String from = "2026-01-01T00:00:00Z";
        String to = "2026-01-01T01:00:00Z";
        assertParameter(params("from", from, "to", to), "tags");
        assertParameter(params("tags", "a/b'); DROP TABLE x; --", "from", from, "to", to), "tags");
        assertParameter(params("tags", "a//b", "from", from, "to", to), "tags");
        assertParameter(params("tags", "a", "to", to), "from");
        assertParameter(params("tags", "a", "from", "yesterday", "to", to), "from");
        assertParameter(params("tags", "a", "from", from, "to", "2026-13-01T00:00:00Z"), "to");
        assertParameter(params("tags", "a", "from", to, "to", from), "to");
        assertParameter(params("tags", "a", "from", from, "to", to, "from", from), "from");
        assertParameter(params("tags", "a", "from", from, "to", to, "interval", "10 parsecs", "agg", "avg"),
                "interval");
        assertParameter(params("tags", "a", "from", from, "to", to, "interval", "0s", "agg", "avg"), "interval");
        assertParameter(params("tags", "a", "from", from, "to", to, "interval", "1m", "agg", "median"), "agg");
        assertParameter(params("tags", "a", "from", from, "to", to, "interval", "1m"), "agg");
        assertParameter(params("tags", "a", "from", from, "to", to, "agg", "avg"), "interval");
    }

    static void assertParameter(Map<String, List<String>> params, String parameter) {
        assertThatThrownBy(() -> HistoryRequest.parse(params))
                .as(params.toString())
                .isInstanceOf(HistoryRequestException.class)
                .satisfies(e -> assertThat(((HistoryRequestException) e).parameter()).isEqualTo(parameter))
                .hasMessageStartingWith(parameter + ": ");
    }
}
