package io.qubiq.config.edit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The editor changes what it is asked to and not one byte more: each test states the whole file
 * after the edit, so a lost comment, a moved key or a changed indentation fails it.
 */
class YamlTextEditorTest {

    private static final String FILE = """
            # Qubiq gateway
            gateway:
              name: line-3   # shown in the console

            outbound:
              db:
                sql:
                  jdbc_url: jdbc:postgresql://db:5432/plant
                  password: ${DB_PASSWORD}
                store_and_forward:
                  max_bytes: 1073741824   # 1 GiB
                  overflow_policy: refuse

              # the broker of the MES
              mes:
                mqtt: {host: mes.local, port: 1883}

            historian: {}
            """;

    private static String edit(String text, YamlEdit... edits) throws YamlEditException {
        return YamlTextEditor.apply(text, List.of(edits));
    }

    @Test
    void changingAValueKeepsItsTrailingCommentAndEveryOtherLine() throws Exception {
        String after = edit(FILE, YamlEdit.put("outbound.db.store_and_forward.max_bytes", 2147483648L));
        assertThat(after).isEqualTo(FILE.replace("max_bytes: 1073741824   # 1 GiB", "max_bytes: 2147483648   # 1 GiB"));
    }

    @Test
    void aStringThatWouldReadAsAnotherTypeOrBreakTheLineIsQuoted() throws Exception {
        String after = edit(FILE, YamlEdit.put("gateway.name", "yes"));
        assertThat(after).contains("  name: \"yes\"   # shown in the console\n");
        assertThat(edit(FILE, YamlEdit.put("gateway.name", "8080"))).contains("name: \"8080\"");
        assertThat(edit(FILE, YamlEdit.put("gateway.name", "a: b #c"))).contains("name: \"a: b #c\"");
        assertThat(edit(FILE, YamlEdit.put("gateway.name", ""))).contains("name: \"\"");
        assertThat(edit(FILE, YamlEdit.put("gateway.name", "two\nlines \"quoted\""))).contains(
                "name: \"two\\nlines \\\"quoted\\\"\"");
        assertThat(edit(FILE, YamlEdit.put("gateway.name", "line-4"))).contains("name: line-4   #");
    }

    @Test
    void aLiteralDollarBraceIsWrittenWithTheLoadersEscapeSoItIsNeverReadAsAVariable() throws Exception {
        assertThat(edit(FILE, YamlEdit.put("gateway.name", "cost ${x}"))).contains("name: cost $${x}");
    }

    @Test
    void aMissingKeyIsAddedAfterTheLastEntryOfItsSectionAtItsIndentation() throws Exception {
        String after = edit(FILE, YamlEdit.put("outbound.db.store_and_forward.high_water_percent", 70));
        assertThat(after).isEqualTo(FILE.replace("      overflow_policy: refuse\n",
                "      overflow_policy: refuse\n      high_water_percent: 70\n"));
    }

    @Test
    void aKeyAddedAfterALineWithACommentLeavesTheCommentOnItsLine() throws Exception {
        String after = edit(FILE, YamlEdit.put("gateway.id", "gw-7"));
        assertThat(after).contains("  name: line-3   # shown in the console\n  id: gw-7\n\noutbound:");
    }

    @Test
    void missingSectionsAboveANewKeyAreCreated() throws Exception {
        String after = edit(FILE, YamlEdit.put("outbound.db.sql.pool.max_size", 4));
        assertThat(after).contains("      password: ${DB_PASSWORD}\n      pool:\n        max_size: 4\n");
        String top = edit(FILE, YamlEdit.put("lifecycle.readiness_grace_ms", 5000));
        assertThat(top).isEqualTo(FILE + "lifecycle:\n  readiness_grace_ms: 5000\n");
    }

    @Test
    void anEmptyFlowSectionBecomesIndentedLinesWhenAKeyIsAddedToIt() throws Exception {
        String after = edit(FILE, YamlEdit.put("historian.ttl_days", 30));
        assertThat(after).isEqualTo(FILE.replace("historian: {}\n", "historian:\n  ttl_days: 30\n"));
    }

    @Test
    void aKeyWrittenWithoutAValueBecomesASection() throws Exception {
        String text = "a: 1\nhistorian:\nb: 2\n";
        assertThat(edit(text, YamlEdit.put("historian.ttl_days", 30))).isEqualTo("a: 1\nhistorian:\n  ttl_days: 30\nb: 2\n");
    }

    @Test
    void aSectionReplacedWholeKeepsTheCommentsAndBlankLinesAfterIt() throws Exception {
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("max_bytes", 1024);
        limits.put("overflow_policy", "drop_oldest");
        String after = edit(FILE, YamlEdit.put("outbound.db.store_and_forward", limits));
        assertThat(after).isEqualTo(FILE.replace("      max_bytes: 1073741824   # 1 GiB\n      overflow_policy: refuse\n",
                "      max_bytes: 1024\n      overflow_policy: drop_oldest\n"));
    }

    @Test
    void aFlowSectionSetToASingleValueKeyByKeyKeepsItsStyle() throws Exception {
        String after = edit(FILE, YamlEdit.put("outbound.mes.mqtt.port", 8883));
        assertThat(after).isEqualTo(FILE.replace("{host: mes.local, port: 1883}", "{host: mes.local, port: 8883}"));
    }

    @Test
    void aFlowSectionGrowsAndShrinksInFlowStyle() throws Exception {
        assertThat(edit(FILE, YamlEdit.put("outbound.mes.mqtt.tls", true)))
                .isEqualTo(FILE.replace("{host: mes.local, port: 1883}", "{host: mes.local, port: 1883, tls: true}"));
        Map<String, Object> will = new LinkedHashMap<>();
        will.put("topic", "a/b,c");
        will.put("qos", 1);
        assertThat(edit(FILE, YamlEdit.put("outbound.mes.mqtt.will", will))).isEqualTo(FILE.replace(
                "{host: mes.local, port: 1883}", "{host: mes.local, port: 1883, will: {topic: \"a/b,c\", qos: 1}}"));
        assertThat(edit(FILE, YamlEdit.remove("outbound.mes.mqtt.port")))
                .isEqualTo(FILE.replace("{host: mes.local, port: 1883}", "{host: mes.local}"));
        assertThat(edit(FILE, YamlEdit.remove("outbound.mes.mqtt.host")))
                .isEqualTo(FILE.replace("{host: mes.local, port: 1883}", "{port: 1883}"));
    }

    @Test
    void removingTheLastEntryOfASectionRemovesTheVariablesItHeld() throws Exception {
        String text = "outbound:\n  db:\n    sql: {password: \"${DB_PASSWORD}\"}\ngateway: {name: g}\n";

        assertThat(edit(text, YamlEdit.remove("outbound.db"))).isEqualTo("outbound: {}\ngateway: {name: g}\n");
        assertThat(edit("tags:\n  - ${TAG}\n", YamlEdit.remove("tags[0]"))).isEqualTo("tags: []\n");
    }

    @Test
    void removingAKeyRemovesItsLinesAndNothingElse() throws Exception {
        String after = edit(FILE, YamlEdit.remove("outbound.db.store_and_forward.overflow_policy"));
        assertThat(after).isEqualTo(FILE.replace("      overflow_policy: refuse\n", ""));
        String section = edit(FILE, YamlEdit.remove("outbound.db.store_and_forward"));
        assertThat(section).isEqualTo(FILE.replace(
                "    store_and_forward:\n      max_bytes: 1073741824   # 1 GiB\n      overflow_policy: refuse\n", ""));
    }

    @Test
    void removingTheLastKeyOfASectionLeavesAnEmptySection() throws Exception {
        String text = "a:\n  b: 1\nc: 2\n";
        assertThat(edit(text, YamlEdit.remove("a.b"))).isEqualTo("a: {}\nc: 2\n");
    }

    @Test
    void removingAKeyThatIsNotThereChangesNothing() throws Exception {
        assertThat(edit(FILE, YamlEdit.remove("outbound.nowhere.sql"))).isEqualTo(FILE);
    }

    @Test
    void listItemsAreSetAppendedAndRemovedInPlace() throws Exception {
        String text = """
                tags:
                  - node_id: ns=2;s=A   # tank level
                    path: tank/level
                  - node_id: ns=2;s=B
                    path: tank/temp
                after: 1
                """;
        assertThat(edit(text, YamlEdit.put("tags[1].path", "tank/temperature")))
                .isEqualTo(text.replace("path: tank/temp\n", "path: tank/temperature\n"));
        Map<String, Object> tag = new LinkedHashMap<>();
        tag.put("node_id", "ns=2;s=C");
        tag.put("path", "pump/speed");
        assertThat(edit(text, YamlEdit.put("tags[2]", tag))).isEqualTo(text.replace("    path: tank/temp\n",
                "    path: tank/temp\n  - node_id: ns=2;s=C\n    path: pump/speed\n"));
        assertThat(edit(text, YamlEdit.remove("tags[0]"))).isEqualTo(text.replace(
                "  - node_id: ns=2;s=A   # tank level\n    path: tank/level\n", ""));
        assertThat(edit(text, YamlEdit.remove("tags[0].node_id"))).isEqualTo(text.replace(
                "  - node_id: ns=2;s=A   # tank level\n    path: tank/level\n", "  - path: tank/level\n"));
    }

    @Test
    void anIndexPastTheEndOfAListIsRefusedWithTheListsSize() {
        assertThatThrownBy(() -> edit("tags:\n  - a\n", YamlEdit.put("tags[5]", "b")))
                .isInstanceOf(YamlEditException.class).hasMessage("tags[5]: the list tags has 1 items; there is no item [5]");
    }

    @Test
    void aValueThatComesFromTheEnvironmentIsNotOverwritten() {
        assertThatThrownBy(() -> edit(FILE, YamlEdit.put("outbound.db.sql.password", "secret")))
                .isInstanceOf(YamlEditException.class)
                .hasMessage("outbound.db.sql.password: takes its value from ${DB_PASSWORD} (the environment); change"
                        + " the variable, or edit the file");
        assertThatThrownBy(() -> edit(FILE, YamlEdit.put("outbound.db.sql", Map.of("jdbc_url", "jdbc:x"))))
                .isInstanceOf(YamlEditException.class).hasMessageContaining("holds a value from ${DB_PASSWORD}");
    }

    @Test
    void aSecretReferenceIsWrittenUnescapedQuotedInBlockAndFlowStyleAndReplacedLikeAnyValue() throws Exception {
        String text = "a:\n  password: old\nb: {user: u, password: old}\n";

        String written = edit(text, new YamlEdit.Put(KeyPath.parse("a.password"), new Reference("${secret:a-1}")),
                new YamlEdit.Put(KeyPath.parse("b.password"), new Reference("${secret:b-1}")));
        String again = edit(written, new YamlEdit.Put(KeyPath.parse("a.password"), new Reference("${secret:a-2}")));

        assertThat(written).isEqualTo("a:\n  password: \"${secret:a-1}\"\nb: {user: u, password: \"${secret:b-1}\"}\n");
        assertThat(again).contains("password: \"${secret:a-2}\"");
        assertThat(edit(text, YamlEdit.put("a.password", "${typed}"))).as("text from a user stays a literal")
                .contains("password: $${typed}");
    }

    @Test
    void aNodeReachedThroughAnAliasIsRefusedNamingTheAnchorsLine() {
        String text = "defaults: &d\n  max_bytes: 10\na:\n  store_and_forward: *d\n";
        assertThatThrownBy(() -> edit(text, YamlEdit.put("a.store_and_forward.max_bytes", 20)))
                .isInstanceOf(YamlEditException.class).hasMessageContaining("alias").hasMessageContaining("(line 1)");
    }

    @Test
    void aPathThroughASingleValueIsRefusedNamingWhereItStops() {
        assertThatThrownBy(() -> edit(FILE, YamlEdit.put("gateway.name.first", "x")))
                .isInstanceOf(YamlEditException.class)
                .hasMessage("gateway.name.first: gateway.name is a single value, not a section, so it has no key 'first'");
    }

    @Test
    void aFileThatIsNotYamlIsRefusedAndAnEmptyOneGetsItsFirstKey() throws Exception {
        assertThatThrownBy(() -> edit("a: [1, 2\n", YamlEdit.put("a", 1)))
                .isInstanceOf(YamlEditException.class).hasMessageContaining("not valid YAML");
        assertThat(edit("", YamlEdit.put("gateway.name", "x"))).isEqualTo("gateway:\n  name: x\n");
        assertThat(edit("# only a comment", YamlEdit.put("gateway.name", "x"))).isEqualTo(
                "# only a comment\ngateway:\n  name: x\n");
    }

    @Test
    void positionsAreRightAfterCharactersOutsideTheBasicPlane() throws Exception {
        String text = "# tank 🛢️ and pump\ngateway:\n  name: a   # 🔧\n  id: b\n";
        assertThat(edit(text, YamlEdit.put("gateway.id", "c"))).isEqualTo(text.replace("id: b", "id: c"));
    }

    @Test
    void aFileWithoutATrailingNewlineGetsTheNewKeyOnItsOwnLine() throws Exception {
        assertThat(edit("a:\n  b: 1", YamlEdit.put("a.c", 2))).isEqualTo("a:\n  b: 1\n  c: 2\n");
    }

    @Test
    void aNullValueIsRefusedInFavourOfRemove() {
        assertThatThrownBy(() -> edit(FILE, new YamlEdit.Put(KeyPath.parse("gateway.name"), null)))
                .isInstanceOf(YamlEditException.class).hasMessageContaining("remove the key instead");
    }

    @Test
    void aBlockScalarOverSeveralLinesIsReplacedWholeAndTheKeysAfterItStay() throws Exception {
        String text = "sql:\n  statement: >-\n    INSERT INTO t\n    VALUES (1)\n\n  parameters: {}\n";
        assertThat(edit(text, YamlEdit.put("sql.statement", "DELETE FROM t")))
                .isEqualTo("sql:\n  statement: DELETE FROM t\n\n  parameters: {}\n");
    }

    @Test
    void aFileWithWindowsLineBreaksKeepsThemOnEveryLineItAddsOrRemoves() throws Exception {
        String text = "a:\r\n  b: 1   # one\r\n  c: 2\r\nd: 3\r\n";
        assertThat(edit(text, YamlEdit.put("a.e", 4))).isEqualTo("a:\r\n  b: 1   # one\r\n  c: 2\r\n  e: 4\r\nd: 3\r\n");
        assertThat(edit(text, YamlEdit.remove("a.b"))).isEqualTo("a:\r\n  c: 2\r\nd: 3\r\n");
        assertThat(edit(text, YamlEdit.put("a.c", 5))).isEqualTo("a:\r\n  b: 1   # one\r\n  c: 5\r\nd: 3\r\n");
        assertThat(edit(text, YamlEdit.put("f.g", 6))).isEqualTo(text + "f:\r\n  g: 6\r\n");
    }
}
