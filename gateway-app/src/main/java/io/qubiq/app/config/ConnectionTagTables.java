package io.qubiq.app.config;

import io.qubiq.config.ConfigTree;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.ConfigChanges;
import io.qubiq.console.RequestFailure;
import io.qubiq.console.TagTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A device connection's tag list as CSV ({@link TagCsv}): an OPC UA connection's {@code tags}, an MQTT
 * connection's {@code subscriptions}. Export reads the configuration file as it is now; import replaces the
 * whole list through the configuration's write side ({@link ConfigChanges#put}), so it is validated, kept
 * as a revision, audited and applied live like any change. A problem of row {@code i} is reported at its CSV
 * line, its key path kept.
 *
 * <p>Stateless apart from its collaborators; safe to share.
 */
public final class ConnectionTagTables implements TagTables {

    /** Per device section key, the key of its tag list. */
    private static final Map<String, String> LISTS = Map.of("opcua", "tags", "mqtt", "subscriptions");

    private final ConfigState state;
    private final ConfigChanges changes;

    public ConnectionTagTables(ConfigState state, ConfigChanges changes) {
        this.state = state;
        this.changes = changes;
    }

    private record Located(String keyPath, List<Map<String, Object>> items) {
    }

    @Override
    public Table export(String connection) {
        LoadedConfig file = state.read().file();
        Located list = locate(file, connection);
        return new Table(connection, file.revision(), connection + "-tags.csv", TagCsv.render(list.items()));
    }

    @Override
    public ConfigChanges.Outcome importCsv(String connection, String csv, String baseRevision, String comment,
                                           ConfigChanges.Author author) {
        Located list = locate(state.read().file(), connection);
        List<TagCsv.Row> rows;
        try {
            rows = TagCsv.parse(csv);
        } catch (TagCsv.CsvException e) {
            return new ConfigChanges.Invalid("the table cannot be read; nothing was written: " + e.getMessage(),
                    List.of(new ConfigAccess.Problem(list.keyPath(), e.getMessage(), e.line(), 0)));
        }
        List<Object> sections = new ArrayList<>();
        rows.forEach(row -> sections.add(TagCsv.section(row)));
        ConfigChanges.Outcome outcome = changes.put(list.keyPath(), sections, baseRevision, comment, author);
        if (!(outcome instanceof ConfigChanges.Invalid invalid)) {
            return outcome;
        }
        Pattern item = Pattern.compile(Pattern.quote(list.keyPath()) + "\\[(\\d+)](?:\\.(.*))?");
        List<ConfigAccess.Problem> problems = new ArrayList<>();
        for (ConfigAccess.Problem problem : invalid.problems()) {
            Matcher m = item.matcher(problem.key());
            if (m.matches() && Integer.parseInt(m.group(1)) < rows.size()) {
                int line = rows.get(Integer.parseInt(m.group(1))).line();
                String column = m.group(2) == null ? "" : m.group(2) + ": ";
                String message = problem.message().replaceFirst("^" + Pattern.quote(problem.key()) + ": ", "");
                problems.add(new ConfigAccess.Problem(problem.key(), "line " + line + ": " + column + message, line, 0));
            } else {
                problems.add(problem);
            }
        }
        return new ConfigChanges.Invalid("the table's tags are not valid; nothing was written", problems);
    }

    @SuppressWarnings("unchecked")
    private static Located locate(LoadedConfig file, String connection) {
        Map<String, Object> tree = ConfigTree.masked(file.config());
        Object devices = tree.get("devices");
        if (!(devices instanceof Map<?, ?> byId) || !(byId.get(connection) instanceof Map<?, ?> device)) {
            throw new RequestFailure.NotFound("no device connection '" + connection + "' in the configuration file");
        }
        for (Map.Entry<String, String> kind : LISTS.entrySet()) {
            if (device.get(kind.getKey()) instanceof Map<?, ?> section) {
                Object items = section.get(kind.getValue());
                List<Map<String, Object>> list = items instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
                return new Located("devices." + connection + "." + kind.getKey() + "." + kind.getValue(), list);
            }
        }
        throw new RequestFailure.Conflict("device connection '" + connection + "' has no tag list to export");
    }
}
