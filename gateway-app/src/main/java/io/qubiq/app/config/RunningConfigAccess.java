package io.qubiq.app.config;

import io.qubiq.config.ConfigDiff;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.ConfigSchema;
import io.qubiq.config.ConfigTree;
import io.qubiq.config.edit.YamlEditException;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.RequestFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The configuration API over the configuration the gateway runs with: the running record shown with
 * secrets masked, the schema of {@link GatewayConfig}, and dry runs that bind a candidate text with the
 * same loader, the same environment and the same command-line overrides as at start-up, then compare it
 * with the running record, and say which choices about buffered data writing it would ask for
 * ({@link BacklogQuestion}). Nothing here changes the running gateway; it reads the {@link ConfigState} that
 * {@link ConfigWrites} moves on, so a change waiting for a restart is reported as such. A secret that reads
 * {@code ***} in a candidate (as an export writes it) is validated as the value the file holds at that key,
 * as an import of the same text would write it ({@link ExportedText}), so an exported file validates as
 * unchanged; one the file has no clear value for is a problem naming its key.
 *
 * <p>Restart granularity of a changed key ({@link #componentOf}): one device connection
 * ({@code devices.<id>}), one outbound connection ({@code outbound.<id>}: its sink and channel), one
 * pipeline ({@code pipelines.<id>}), the historian ({@code historian}); any other key restarts the
 * {@code gateway}. Safe for concurrent requests.
 */
public final class RunningConfigAccess implements ConfigAccess {

    private static final Map<String, String> RESTARTED_ONE_BY_ONE = Map.of(
            "devices", "device", "outbound", "outbound", "pipelines", "pipeline");

    private final ConfigState state;
    private final ConfigApplier applier;
    private final Map<String, Object> schema = ConfigSchema.of(GatewayConfig.class);
    private final ExportedText exported = new ExportedText(SecretText.of(schema).names());

    public RunningConfigAccess(LoadedConfig running) {
        this(new ConfigState(running));
    }

    public RunningConfigAccess(ConfigState state) {
        this(state, ConfigApplier.restartRequired());
    }

    /** @param applier names the backlogs a candidate would affect ({@link BacklogQuestion}), for the dry run */
    public RunningConfigAccess(ConfigState state, ConfigApplier applier) {
        this.state = state;
        this.applier = applier;
    }

    @Override
    public Running running() {
        ConfigState.Pair now = state.read();
        LoadedConfig running = now.running();
        List<EnvironmentKey> fromEnvironment = now.file().fromEnvironment().entrySet().stream()
                .map(e -> new EnvironmentKey(e.getKey(), e.getValue(), true)).toList();
        return new Running(running.source(), running.revision(), ConfigTree.masked(running.config()), fromEnvironment,
                now.file().revision(), now.pending());
    }

    @Override
    public Map<String, Object> schema() {
        return schema;
    }

    @Override
    public Validation validate(String text, String name) {
        LoadedConfig running = state.read().running();
        String filled;
        try {
            filled = asImported(text);
        } catch (YamlEditException e) {
            String key = e.path().toString();
            return new Validation(false, List.of(new Problem(key, e.getMessage(), 0, 0)), List.of(),
                    List.of());
        }
        LoadedConfig candidate;
        try {
            candidate = LoadedConfig.bind(name, "sha256", filled, running.environment(), running.secrets());
        } catch (ConfigException e) {
            if (e.unreadable()) {
                throw new RequestFailure.InvalidRequest("the body is not YAML or JSON: " + e.problems().stream()
                        .map(ConfigProblem::toString).collect(Collectors.joining("; ")));
            }
            List<Problem> problems = e.problems().stream()
                    .map(p -> new Problem(p.keyPath(), p.message(), p.line(), p.column())).toList();
            return new Validation(false, problems, List.of(), List.of());
        }
        List<ConfigDiff.Change> diff = ConfigDiff.between(running.config(), running.overrides().apply(candidate.config()));
        Set<String> restarts = new LinkedHashSet<>();
        diff.forEach(change -> componentOf(change.key()).ifPresent(restarts::add));
        return new Validation(true, List.of(),
                diff.stream().map(c -> new Change(c.key(), c.from(), c.to())).toList(), List.copyOf(restarts),
                BacklogQuestion.all(applier, state.read().file(), running.successor(candidate)));
    }

    /** {@code text} with its masked secrets filled in from the file on disk, as an import would write it. */
    private String asImported(String text) throws YamlEditException {
        Optional<Path> file = state.read().file().file();
        if (file.isEmpty() || !text.contains(ExportedText.MASK)) {
            return text;
        }
        String current;
        try {
            current = Files.readString(file.get());
        } catch (IOException e) {
            return text; // the import would fail on the file, not on this text
        }
        return exported.unmasked(text, current);
    }

    /**
     * {@code device:<id>}, {@code outbound:<id>}, {@code pipeline:<id>}, {@code historian} or {@code gateway};
     * nothing for {@code devices}, {@code outbound} or {@code pipelines} as a whole (an empty map on one
     * side), whose entries' own keys name what changes.
     */
    static Optional<String> componentOf(String key) {
        int dot = key.indexOf('.');
        String section = dot < 0 ? key : key.substring(0, dot);
        String kind = RESTARTED_ONE_BY_ONE.get(section);
        if (kind != null && dot < 0) {
            return Optional.empty();
        }
        if (kind != null) {
            String rest = key.substring(dot + 1);
            int end = rest.length();
            for (char c : new char[] {'.', '['}) {
                int at = rest.indexOf(c);
                end = at >= 0 ? Math.min(end, at) : end;
            }
            return Optional.of(kind + ":" + rest.substring(0, end));
        }
        return Optional.of(section.equals("historian") ? "historian" : "gateway");
    }
}
