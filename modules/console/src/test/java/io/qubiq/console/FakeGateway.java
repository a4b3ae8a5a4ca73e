package io.qubiq.console;

import io.qubiq.core.connector.BrowseNode;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.event.AlarmEvent;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Everything the console reads, answered from memory, recording the operator actions it receives.
 * These tests prove the console's own contract (routing, guard, JSON); the gateway-app tests prove the
 * same routes over the real components.
 */
final class FakeGateway implements DeviceAccess, TagView, StoreForwardAccess, PipelineAccess, HistoryAccess,
        AlarmAccess, AuditAccess, ConfigAccess {

    /** One operator action as received: what, on which target, by whom, from where. */
    record Action(String what, String target, String user, String from) {
    }

    final List<Action> actions = new CopyOnWriteArrayList<>();
    final List<TagValue> tags = new CopyOnWriteArrayList<>();
    volatile List<StoreForwardAccess.Channel> channels = List.of(new StoreForwardAccess.Channel("db", "RUNNING",
            io.qubiq.core.health.ConnectionState.UP, 0, 0, 1 << 20, 0, 80, 60, Optional.empty(), 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, false, false, Optional.empty(), Optional.empty(), "refuse"));

    @Override
    public List<Device> devices() {
        return List.of();
    }

    @Override
    public Optional<Device> device(String id) {
        return Optional.empty();
    }

    @Override
    public CompletableFuture<List<BrowseNode>> browse(String connectionId, String nodeId) {
        return CompletableFuture.failedFuture(new RequestFailure.NotFound("no device connection '" + connectionId + "'"));
    }

    @Override
    public CompletableFuture<TagWriteResult> write(TagPath tag, Object value, String user, String from) {
        actions.add(new Action("write", tag.value(), user, from));
        return CompletableFuture.failedFuture(new RequestFailure.NotFound("no device connection reads tag " + tag));
    }

    @Override
    public Certificates certificates(String connectionId) {
        throw new RequestFailure.NotFound("no device connection '" + connectionId + "'");
    }

    @Override
    public Certificate trust(String connectionId, String thumbprint, String user, String from) {
        actions.add(new Action("trust", connectionId, user, from));
        throw new RequestFailure.NotFound("no device connection '" + connectionId + "'");
    }

    @Override
    public List<TagValue> latest() {
        return List.copyOf(tags);
    }

    @Override
    public Optional<TagValue> latest(TagPath path) {
        return tags.stream().filter(t -> t.path().equals(path)).findFirst();
    }

    @Override
    public List<StoreForwardAccess.Channel> channels() {
        return channels;
    }

    @Override
    public Optional<StoreForwardAccess.Channel> channel(String connection) {
        return connection.equals("db") ? Optional.of(channels.get(0)) : Optional.empty();
    }

    @Override
    public StoreForwardAccess.QuarantinePage quarantine(String connection, int offset, int limit,
                                                        Optional<String> failureClass) {
        return new StoreForwardAccess.QuarantinePage(List.of(), offset, 0);
    }

    @Override
    public Optional<StoreForwardAccess.QuarantinePreview> quarantineEntry(String connection, long id) {
        return Optional.empty();
    }

    @Override
    public ActionResult retry(String connection, Selection selection, String user, String from) {
        actions.add(new Action("retry", connection + " " + selection, user, from));
        return new ActionResult(connection, "retry", selection.ids().size(), 0, java.util.Map.of(), List.of());
    }

    @Override
    public ActionResult drop(String connection, Selection selection, String user, String from) {
        actions.add(new Action("drop", connection + " " + selection, user, from));
        return new ActionResult(connection, "drop", selection.ids().size(), 0, java.util.Map.of(), List.of());
    }

    @Override
    public List<PipelineAccess.Pipeline> pipelines() {
        return List.of();
    }

    @Override
    public Optional<PipelineAccess.Pipeline> pipeline(String id) {
        return Optional.empty();
    }

    @Override
    public PipelineAccess.Pipeline setEnabled(String id, boolean enabled, String user, String from) {
        actions.add(new Action(enabled ? "enable" : "disable", id, user, from));
        throw new RequestFailure.NotFound("no pipeline '" + id + "'");
    }

    @Override
    public List<HistoryAccess.Series> query(Map<String, List<String>> params) {
        return List.of();
    }

    @Override
    public List<HistoryAccess.WalTable> walStatus() {
        return List.of();
    }

    @Override
    public HistoryAccess.Status status() {
        return new HistoryAccess.Status(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Override
    public HistoryAccess.WalTable skipWalTransaction(String table, String user, String from) {
        actions.add(new Action("skip", table, user, from));
        throw new RequestFailure.NotFound("\"" + table + "\" is not a historian table");
    }

    @Override
    public List<AlarmEvent> active() {
        return List.of();
    }

    @Override
    public List<AlarmEvent> recent() {
        return List.of();
    }

    @Override
    public Page query(Query query) {
        return new Page(List.of(), OptionalLong.empty());
    }

    @Override
    public ConfigAccess.Running running() {
        return new ConfigAccess.Running("fake.yaml", "sha256:0", Map.of("gateway", Map.of("name", "fake")), List.of(),
                "sha256:0", List.of());
    }

    @Override
    public Map<String, Object> schema() {
        return Map.of("$schema", "https://json-schema.org/draft/2020-12/schema", "type", "object");
    }

    @Override
    public ConfigAccess.Validation validate(String text, String name) {
        actions.add(new Action("validate", name, "", ""));
        return new ConfigAccess.Validation(true, List.of(), List.of(), List.of());
    }

    /** Every route group of the console over this fake. */
    List<ApiRoutes> routes() {
        return List.of(new DeviceRoutes(this, this), new StoreForwardRoutes(this), new PipelineRoutes(this),
                new HistoryRoutes(this), new AlarmRoutes(this), new AuditRoutes(this),
                new LossRoutes(query -> new LossAccess.Report(List.of(), false, List.of(), 0, 0,
                        new LossAccess.Damage(0, 0, 0), 0)), new ConfigRoutes(this));
    }

    EventStream.Sources sources() {
        return new EventStream.Sources(Optional.of(this), Optional.of(this), Optional.of(this), Optional.of(this));
    }
}
