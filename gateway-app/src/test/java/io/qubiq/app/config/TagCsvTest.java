package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TagCsvTest {

    private static Map<String, Object> tag(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void sectionsRoundTripThroughTheTableNestedKeysDottedAndCellsTyped() throws Exception {
        List<Map<String, Object>> tags = List.of(
                tag("path", "plant/oven, left", "node_id", "ns=2;s=Oven \"A\"", "sampling_interval_ms", 100L,
                        "writable", false),
                tag("path", "plant/flow", "node_id", "ns=3;i=1001", "scale", tag("raw_low", 0L, "raw_high", 27648L,
                        "eng_low", 0.0, "eng_high", 12.5), "engineering_unit", "m3/h"));

        String csv = TagCsv.render(tags);

        assertThat(csv.lines().findFirst().orElseThrow()).isEqualTo("path,node_id,sampling_interval_ms,writable,"
                + "scale.raw_low,scale.raw_high,scale.eng_low,scale.eng_high,engineering_unit");
        List<TagCsv.Row> rows = TagCsv.parse(csv);
        assertThat(rows).extracting(TagCsv.Row::line).containsExactly(2, 3);
        assertThat(TagCsv.section(rows.get(0))).isEqualTo(tags.get(0));
        assertThat(TagCsv.section(rows.get(1))).isEqualTo(tag("path", "plant/flow", "node_id", "ns=3;i=1001",
                "scale", tag("raw_low", 0L, "raw_high", 27648L, "eng_low", 0L, "eng_high", 12.5),
                "engineering_unit", "m3/h"));
    }

    @Test
    void aLineBreakInsideAQuotedCellCountsForTheLinesOfTheRowsAfterIt() throws Exception {
        String csv = "path,node_id\n\"two\nlines\",ns=2;s=A\r\n\nplant/b,ns=2;s=B\n";

        List<TagCsv.Row> rows = TagCsv.parse(csv);

        assertThat(rows).extracting(TagCsv.Row::line).containsExactly(2, 5);
        assertThat(rows.get(0).cells()).containsEntry("path", "two\nlines");
    }

    @Test
    void emptyCellsAreKeysLeftOutAndTextThatOnlyLooksNumericStaysText() throws Exception {
        Map<String, Object> section = TagCsv.section(TagCsv.parse("path,node_id,queue_size,unit\n007,1.50x,,degC\n")
                .get(0));

        assertThat(section).isEqualTo(tag("path", "007", "node_id", "1.50x", "unit", "degC"));
    }

    @Test
    void tablesThatCannotBeReadNameTheLine() {
        assertThatThrownBy(() -> TagCsv.parse("")).hasMessageStartingWith("line 1: the table is empty");
        assertThatThrownBy(() -> TagCsv.parse("path,path\n")).hasMessage("line 1: column 'path' appears twice in"
                + " the header row");
        assertThatThrownBy(() -> TagCsv.parse("path,node_id\na,b\nc,d,e\n"))
                .hasMessage("line 3: the row has 3 cells but the header names 2 columns");
        assertThatThrownBy(() -> TagCsv.parse("path\n\"open\n")).hasMessage("line 2: a quoted cell is not closed by \"");
    }
}
