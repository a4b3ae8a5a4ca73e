package io.qubiq.app;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.app.audit.AuditForwardTargets;
import io.qubiq.app.audit.AuditJournalAccess;
import io.qubiq.audit.AuditJournal;
import io.qubiq.app.config.DeviceConfig;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.config.ConfigApplier;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.ConfigState;
import io.qubiq.app.config.ConfigWrites;
import io.qubiq.app.config.ConnectionTagTables;
import io.qubiq.app.config.RunningConfigAccess;
import io.qubiq.console.ConfigChangeRoutes;
import io.qubiq.console.ConnectionTestRoutes;
import io.qubiq.console.ConfigRoutes;
import io.qubiq.app.disk.DiskWatcher;
import io.qubiq.core.disk.SpaceSource;
import io.qubiq.app.config.QuestDbSection;
import io.qubiq.config.secret.SecretStore;
import io.qubiq.app.history.HistorianAccess;
import io.qubiq.historian.embedded.EmbeddedQuestDb;
import io.qubiq.app.runtime.FreePort;
import io.qubiq.app.storeforward.ChannelsAccess;
import io.qubiq.app.storeforward.OrphanAttach;
import io.qubiq.app.storeforward.OrphanDiscard;
import io.qubiq.app.storeforward.OrphanedChannels;
import io.qubiq.app.storeforward.DestinationParts;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundTester;
import io.qubiq.app.outbound.OutboundConnections;
import io.qubiq.app.outbound.RunningOutbound;
import io.qubiq.app.pipelines.MqttDeviceMessages;
import io.qubiq.app.pipelines.PipelineOutputs;
import io.qubiq.app.pipelines.PipelinesAccess;
import io.qubiq.console.ConfigChanges;
import io.qubiq.console.PipelineRoutes;
import io.qubiq.console.TagTableRoutes;
import io.qubiq.pipeline.Pipelines;
import io.qubiq.pipeline.config.TriggerConfig;
import io.qubiq.pipeline.trigger.TagChangeTrigger;
import io.qubiq.console.HistoryRoutes;
import io.qubiq.console.StoreForwardRoutes;
import io.qubiq.app.pipelines.PipelineTrialRuns;
import io.qubiq.console.PipelineTrialRoutes;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.sink.Sink;
import io.qubiq.historian.Historian;
import io.qubiq.historian.HistorianChannels;
import io.qubiq.historian.HistorianConfig;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.historian.wal.WalSupervisor;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.app.apply.LiveApply;
import io.qubiq.app.apply.LiveOutboundWiring;
import io.qubiq.app.config.ConfigApplier;
import io.qubiq.app.devices.DeviceConnections;
import io.qubiq.app.devices.ConnectionTester;
import io.qubiq.app.connectiontest.SettingsProbe;
import io.qubiq.app.devices.DeviceKinds;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.app.devices.SubscriberParts;
import io.qubiq.app.devices.TagBusView;
import io.qubiq.app.events.EventJournal;
import io.qubiq.app.losses.LedgerLosses;
import io.qubiq.app.losses.LossRecorder;
import io.qubiq.app.metrics.LossCounters;
import io.qubiq.console.LossRoutes;
import io.qubiq.app.lifecycle.GatewayStatus;
import io.qubiq.app.lifecycle.Lifecycle;
import io.qubiq.app.metrics.GatewayMetrics;
import io.qubiq.app.runtime.BuildInfo;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.connector.opcua.OpcUaConnectionConfig;
import io.qubiq.connector.mqtt.MqttConnectionConfig;
import io.qubiq.connector.mqtt.MqttSubscriptionConfig;
import io.qubiq.connector.mqtt.MqttWritableTagConfig;
import io.qubiq.connector.mqtt.PayloadFormat;
import io.qubiq.connector.opcua.OpcUaTagConfig;
import io.qubiq.demoplant.DemoPlantConfig;
import io.qubiq.demoplant.SimulatedPlant;
import io.qubiq.console.ApiRoutes;
import io.qubiq.console.AuditAccess;
import io.qubiq.console.ConsoleServer;
import io.qubiq.console.AlarmRoutes;
import io.qubiq.console.AuditRoutes;
import io.qubiq.console.EventStream;
import io.qubiq.app.events.JournalAlarms;
import io.qubiq.auth.Auth;
import io.qubiq.auth.AuthConfig;
import io.qubiq.auth.StoreDamage;
import io.qubiq.app.lifecycle.UserStoreParts;
import org.slf4j.LoggerFactory;
import io.qubiq.console.DeviceRoutes;
import io.qubiq.console.GatewayInfo;
import io.qubiq.core.tag.DataType;
import io.qubiq.tagbus.TagBus;
import java.io.IOException;
import java.nio.file.Path;
import io.qubiq.core.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The wiring: every concrete component is constructed here, by hand, in dependency order. This is
 * the one place that knows them all; a reader who wants to know what runs starts here.
 *
 * <p>Order: the HTTP server first, so /health can say STARTING while the rest comes up and
 * STOPPING while it goes down; then the tag bus; then the store-and-forward channels (the
 * historian's and every outbound connection's), the historian and the pipelines; and last the
 * device connections that feed them, so no value arrives before its consumers are ready.
 *
 * <p>Required ({@code add}): the console, the tag bus and the connection monitor; the configuration,
 * the data directory lock and the user store are checked before (here and in the runner). Everything
 * else is isolated ({@code addIsolated}): a channel, the audit journal, QuestDB, the historian, the
 * pipelines or the device connections that cannot start are FAILED on /health and the rest runs. A
 * pipeline output whose channel did not start counts its items refused, as at a full channel.
 */
public final class Gateway {

    private final GatewayConfig config;
    private final Lifecycle lifecycle;
    private final GatewayStatus status;
    private final ConsoleServer console;
    private final Auth auth;
    private final TagBus tagBus;
    private final EventJournal events = new EventJournal();
    private final DeviceConnections devices;
    private final ConfigApplier configApplier;
    private final Optional<Pipelines> pipelines;
    private final ConfigWrites configWrites;
    private final GatewayMetrics metrics;
    private final AuditJournal auditJournal;
    private final LossRecorder losses;
    private final RunningOutbound outbound;

    static final String HISTORIAN = "historian";
    static final String DEMO_PLANT = "demo-plant";
    static final String DEMO_PLANT_MQTT = "demo-plant-mqtt";
    static final Duration PROBE_INTERVAL = Duration.ofSeconds(5);

    /**
     * @throws ConfigurationException when a component refuses its configuration (a malformed QuestDB
     *     address, say); nothing has been started then
     */
    public Gateway(GatewayConfig config, DataDirectory dataDirectory, Clock clock) throws ConfigurationException {
        this(LoadedConfig.unrecorded(config), dataDirectory, clock);
    }

    /**
     * As {@link #Gateway(GatewayConfig, DataDirectory, Clock)}, knowing where the configuration came from,
     * which the configuration API reports and validates against.
     */
    public Gateway(LoadedConfig loaded, DataDirectory dataDirectory, Clock clock) throws ConfigurationException {
        GatewayConfig config = loaded.config();
        this.config = config;
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        this.metrics = new GatewayMetrics(registry);
        // every loss of data, from here on: the ledger, its metrics and its alarm
        this.losses = new LossRecorder(config.losses(), dataDirectory.root().resolve("losses"),
                new LossCounters(registry), events, clock);
        events.recordLossesIn(losses);
        this.tagBus = new TagBus(TagBus.DEFAULT_STOP_TIMEOUT, events, clock);
        Map<String, DeviceConfig> deviceConfigs = new LinkedHashMap<>(config.devices());
        Optional<SimulatedPlant> plant = config.demoPlant().map(plantConfig -> demoPlant(plantConfig, deviceConfigs));
        // one connector per device connection, each built by its kind
        DeviceKind.Context deviceContext = new DeviceKind.Context(gatewayId(config), dataDirectory.root(), clock, events);
        Map<String, DeviceConnections.Entry> deviceEntries = DeviceKinds.entries(deviceConfigs, deviceContext);
        this.devices = new DeviceConnections(deviceEntries, tagBus, events, clock,
                Duration.ofMillis(config.lifecycle().readinessGraceMs()), Ticker.system(), tagBus.latestValues()::latest);
        ConnectionMonitor monitor = new ConnectionMonitor(clock);
        // the channels that run from start to stop: the historian's and the audit journal's
        Map<String, StoreForwardChannel<?>> fixedChannels = new LinkedHashMap<>();
        Optional<HistorianParts> history = config.historian().isPresent()
                ? Optional.of(historian(config.historian().get(), dataDirectory.root(), monitor, clock))
                : Optional.empty();
        history.ifPresent(parts -> fixedChannels.put(HISTORIAN, parts.channel()));
        List<Path> watchedDirs = new ArrayList<>(List.of(dataDirectory.root()));
        List<Path> measuredDirs = new ArrayList<>();
        if (config.historian().isPresent() && config.questdb().embedded()) {
            measuredDirs.add(dataDirectory.root().resolve("questdb"));
            watchedDirs.addAll(measuredDirs);
        }
        DiskWatcher disk = new DiskWatcher(config.disk(), watchedDirs, measuredDirs, SpaceSource.fileStores(), events,
                clock);
        // the outbound connections: built now, added and retired live later (LiveApply)
        this.outbound = new RunningOutbound(OutboundConnections.build(config.outbound(), dataDirectory.root(),
                monitor, PROBE_INTERVAL, events, clock), dataDirectory.root(), monitor, PROBE_INTERVAL, events, clock,
                disk);
        RunningOutbound outbound = this.outbound;
        // the audit journal: its own channel into the local audit store, started right after the console
        this.auditJournal = AuditJournal.build(config.audit(), dataDirectory.root(),
                AuditForwardTargets.of(config.audit(), outbound.all()), monitor, PROBE_INTERVAL, events, clock);
        events.journalTo(auditJournal);
        fixedChannels.put(AuditJournal.CHANNEL, auditJournal.channel());
        // every channel, with the outbound connections running now
        Supplier<Map<String, StoreForwardChannel<?>>> runningChannels = () -> {
            Map<String, StoreForwardChannel<?>> now = new LinkedHashMap<>(fixedChannels);
            outbound.all().forEach((id, connection) -> now.put(id, connection.channel()));
            return now;
        };
        Map<String, StoreForwardChannel<?>> channels = runningChannels.get();
        Optional<Pipelines> pipelines = pipelines(config, dataDirectory.root(), deviceEntries, outbound, clock);
        this.pipelines = pipelines;
        this.configApplier = new LiveApply(devices, deviceContext, id -> metrics.bindDevice(devices, id), outbound,
                pipelines, id -> pipelines.ifPresent(running -> bindPipeline(running, id)),
                history.map(HistorianParts::historian), clock);

        GatewayInfo info = new GatewayInfo(config.gateway().name(), BuildInfo.version(), clock.instant());
        this.lifecycle = new Lifecycle(clock);
        this.auth = openAuth(config.auth(), dataDirectory.root(), clock);
        // data of connections renamed or removed: reported; delivered or deleted only when an operator says so
        OrphanedChannels orphans = OrphanedChannels.scan(dataDirectory.root().resolve("connections"), channels.keySet());
        ChannelsAccess channelAccess = new ChannelsAccess(runningChannels, orphans,
                new OrphanDiscard(orphans, losses::recordDurably, events, clock),
                new OrphanAttach(orphans, outbound::all, events, clock));
        TagBusView tags = new TagBusView(tagBus);
        JournalAlarms alarms = new JournalAlarms(events);
        List<ApiRoutes> routes = new ArrayList<>();
        routes.add(new DeviceRoutes(devices, tags));
        routes.add(new StoreForwardRoutes(channelAccess));
        PipelinesAccess pipelineAccess = new PipelinesAccess(pipelines, events, clock);
        routes.add(new PipelineRoutes(pipelineAccess));
        routes.add(new PipelineTrialRoutes(new PipelineTrialRuns(tagBus, outbound::all, System.getenv(), clock)));
        routes.add(new AlarmRoutes(alarms));
        routes.add(new AuditRoutes(new AuditJournalAccess(auditJournal.store())));
        routes.add(new LossRoutes(new LedgerLosses(losses)));
        ConfigState configState = new ConfigState(loaded);
        routes.add(new ConfigRoutes(new RunningConfigAccess(configState, configApplier)));
        this.configWrites = openConfigWrites(configState, dataDirectory.root(), clock);
        routes.add(new ConfigChangeRoutes(configWrites));
        routes.add(new TagTableRoutes(new ConnectionTagTables(configState, configWrites)));
        routes.add(new ConnectionTestRoutes(new ConnectionTester(() -> configState.read().running().config().devices(),
                () -> configState.read().running().environment(), deviceContext, SettingsProbe.TIMEOUT)));
        routes.add(new ConnectionTestRoutes(new OutboundTester(() -> configState.read().running().config().outbound(),
                () -> configState.read().running().environment(), SettingsProbe.TIMEOUT, clock),
                "/api/v1/outbound/test", "Test an outbound connection now (its sink's probe: reachable, latency);"
                        + " adds and restarts nothing"));
        history.ifPresent(parts -> routes.add(new HistoryRoutes(new HistorianAccess(parts.historian(), parts.wal()))));
        channels.values().forEach(channel -> channel.diskReserve(disk));
        // a backlog found at start drains once the device connections collect: start-up has the CPU first
        Duration backlogHold = Duration.ofMillis(2 * config.lifecycle().readinessGraceMs());
        channels.forEach((id, channel) -> {
            if (!id.equals(AuditJournal.CHANNEL)) {
                channel.holdBacklogUntil(devices::startUpSettled, backlogHold);
            }
        });
        this.status = new GatewayStatus(info, lifecycle,
                List.of(new DestinationParts(monitor, runningChannels), new SubscriberParts(tagBus), devices, pipelineAccess,
                        disk, new UserStoreParts(auth)), disk::statuses);
        this.console = new ConsoleServer(config.http(), status, registry, clock, auth,
                routes, new EventStream.Sources(Optional.of(channelAccess), Optional.of(tags), Optional.of(devices),
                        Optional.of(alarms)));

        // start order: dependencies first; the device connections last, so no value arrives early
        lifecycle.add(console);
        lifecycle.add(disk); // before every channel: they ask it whether the disk is critical
        metrics.bindDisk(disk);
        lifecycle.addIsolated(losses);
        lifecycle.addIsolated(auditJournal);
        metrics.bindChannel(AuditJournal.CHANNEL, auditJournal.channel()::status);
        plant.ifPresent(lifecycle::addIsolated);
        history.flatMap(HistorianParts::embedded).ifPresent(lifecycle::addIsolated);
        lifecycle.add(tagBus);
        lifecycle.add(monitor);
        history.ifPresent(parts -> {
            lifecycle.addIsolated(parts.channel());
            lifecycle.addIsolated(parts.historian(), parts.channel());
            lifecycle.addIsolated(parts.wal());
            metrics.bindChannel(HISTORIAN, parts.channel()::status);
        });
        outbound.all().forEach((id, connection) -> {
            lifecycle.addIsolated(connection.channel());
            metrics.bindChannel(id, connection.channel()::status);
        });
        pipelines.ifPresent(lifecycle::addIsolated);
        lifecycle.addIsolated(devices);
        outbound.wire(new LiveOutboundWiring(lifecycle, pipelines.isPresent() ? pipelines.get() : devices, metrics,
                orphans, config.audit().forwardTo()));

        metrics.bindJvm();
        metrics.bindLifecycle(lifecycle);
        metrics.bindHealth(status);
        metrics.bindTagBus(tagBus);
        metrics.bindDevices(devices);
        history.ifPresent(parts -> {
            metrics.bindTagBusSubscriber(tagBus, Historian.SUBSCRIBER);
            metrics.bindHistorian(parts.historian()::status, parts.wal()::status, parts.historian().schema().tables());
        });
        pipelines.ifPresent(running -> config.pipelines().keySet().forEach(id -> bindPipeline(running, id)));
    }

    /** A pipeline's metrics, and its tag-bus subscriber's when a tag change triggers it. */
    private void bindPipeline(Pipelines running, String id) {
        if (running.config(id).map(c -> c.trigger().kind() == TriggerConfig.Kind.TAGS).orElse(false)) {
            metrics.bindTagBusSubscriber(tagBus, TagChangeTrigger.subscriberName(id));
        }
        metrics.bindPipelines(running::status, List.of(id));
    }

    /** The configuration API's write side; changes are applied live where {@link LiveApply} can. */
    private ConfigWrites openConfigWrites(ConfigState state, Path dataDir, Clock clock) throws ConfigurationException {
        try {
            return ConfigWrites.open(state, dataDir, configApplier, events, clock);
        } catch (IOException e) {
            throw new ConfigurationException("config", "cannot open the configuration revisions in "
                    + dataDir.resolve(ConfigWrites.REVISIONS_DIR) + ": " + e.getMessage());
        }
    }

    /**
     * Users, sessions and API tokens in {@code <data>/auth}; on a first start, creates the administrator
     * from {@code auth.admin_password} or logs a one-time setup token. A damaged store file does not stop
     * the gateway: it is logged at ERROR, listed on /health ({@link UserStoreParts}) and sign-in is refused.
     */
    private Auth openAuth(AuthConfig authConfig, Path dataDir, Clock clock) throws ConfigurationException {
        try {
            Auth opened = Auth.open(authConfig, dataDir.resolve("auth"), clock, events);
            opened.damage().forEach(damage -> LoggerFactory.getLogger(Gateway.class).error("The user store file {} is"
                    + " damaged: {}. A copy is kept in {}. The gateway runs and collects data, but sign-in and API"
                    + " tokens are refused. To recover, {}.", damage.file(), damage.problem(),
                    damage.copy().isEmpty() ? "(none: the copy failed)" : damage.copy(),
                    StoreDamage.RECOVERY.replace("DIR", dataDir.toString())));
            opened.bootstrap().start(authConfig.adminPassword());
            return opened;
        } catch (IOException e) {
            throw new ConfigurationException("auth", "cannot open the user store in " + dataDir.resolve("auth")
                    + ": " + e.getMessage());
        }
    }

    /**
     * The configured pipelines, their outputs wired to the outbound connections' channels and their
     * MQTT triggers to the MQTT device connections; empty when none are configured.
     */
    private Optional<Pipelines> pipelines(GatewayConfig config, Path dataDir,
                                          Map<String, DeviceConnections.Entry> deviceEntries,
                                          RunningOutbound outbound, Clock clock) {
        if (config.pipelines().isEmpty()) {
            return Optional.empty();
        }
        Map<String, DeviceConnector> triggering = new LinkedHashMap<>();
        deviceEntries.forEach((id, entry) -> {
            if (entry.triggersPipelines()) {
                triggering.put(id, entry.connector());
            }
        });
        return Optional.of(new Pipelines(config.pipelines(), dataDir.resolve("pipelines"), tagBus,
                new MqttDeviceMessages(triggering, clock), new PipelineOutputs(outbound::all), clock, events));
    }

    /** The historian's parts, built together because they share QuestDB's address. */
    private record HistorianParts(Optional<EmbeddedQuestDb> embedded, StoreForwardChannel<QuestDbRow> channel,
                                  Historian historian, WalSupervisor wal) {
    }

    /**
     * QuestDB (embedded or not), the historian's store-and-forward channel with its probe registered
     * at the connection monitor, the historian, and the WAL supervisor of its tables.
     */
    private HistorianParts historian(HistorianConfig historianConfig, Path dataDir, ConnectionMonitor monitor,
                                     Clock clock) throws ConfigurationException {
        QuestDbSection questdb = config.questdb();
        QuestDbSinkConfig client = questdb.client();
        Optional<EmbeddedQuestDb> embedded = Optional.empty();
        if (questdb.embedded()) {
            String password;
            try {
                io.qubiq.fileops.OwnerOnly.createDirectories(dataDir.resolve("questdb")); // before QuestDB's umask does
                password = ConfigSource.generatedSecret(dataDir, SecretStore.EMBEDDED_QUESTDB_PASSWORD);
            } catch (IOException e) {
                throw new ConfigurationException("questdb", "cannot prepare the embedded QuestDB in "
                        + dataDir.resolve("questdb") + " (its folder and its password in the secrets store): "
                        + e.getMessage());
            }
            EmbeddedQuestDb server = new EmbeddedQuestDb(dataDir.resolve("questdb"), EmbeddedQuestDb.locateJar(Gateway.class),
                    FreePort.orFixed(questdb.embeddedHttpPort()), FreePort.orFixed(questdb.embeddedPgPort()),
                    questdb.embeddedMaxHeapMb(), password);
            client = client.withAddress(server.httpAddress()).withBasicAuth(EmbeddedQuestDb.USER, password);
            embedded = Optional.of(server);
        }
        Sink<QuestDbRow> sink = HistorianChannels.sink(HISTORIAN, historianConfig, client, clock);
        Liveness liveness = monitor.register(HISTORIAN, sink::probe, PROBE_INTERVAL);
        StoreForwardChannel<QuestDbRow> channel = HistorianChannels.channel(HISTORIAN, historianConfig, sink,
                dataDir.resolve("connections").resolve(HISTORIAN), liveness, events, clock);
        ExecClient exec = HistorianChannels.execClient(historianConfig, client);
        Historian historian = new Historian(historianConfig, config.gateway().identity(), tagBus, channel, exec,
                clock, io.qubiq.core.time.Ticker.system(), events);
        WalSupervisor wal = new WalSupervisor(exec, historian.schema().tables(), historianConfig.wal(), events, clock);
        return new HistorianParts(embedded, channel, historian, wal);
    }

    /**
     * The simulated plant of {@code qubiq demo}, the OPC UA device connection {@code demo-plant} that
     * reads every node it serves (its two setpoints writable), and the MQTT device connection
     * {@code demo-plant-mqtt} that reads every topic it publishes through one wildcard JSON
     * subscription (its remote setpoint writable), signed in with the broker's credentials generated for
     * this run (the broker admits nobody else). Ports configured as 0 are picked here, so both
     * connections point at the ports the plant will listen on. The two connections are added to
     * {@code devices}, to be built by their kinds like configured ones.
     */
    private static SimulatedPlant demoPlant(DemoPlantConfig plantConfig, Map<String, DeviceConfig> devices) {
        int port = FreePort.orFixed(plantConfig.opcuaPort());
        int mqttPort = FreePort.orFixed(plantConfig.mqttPort());
        SimulatedPlant plant = new SimulatedPlant(plantConfig.withOpcuaPort(port).withMqttPort(mqttPort));
        List<OpcUaTagConfig> tags = SimulatedPlant.nodes().stream()
                .map(node -> new OpcUaTagConfig(Optional.of(node.tagPath()), node.nodeId(), Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), node.engineeringUnit(),
                        node.writable()))
                .toList();
        OpcUaConnectionConfig connection = OpcUaConnectionConfig.of("opc.tcp://127.0.0.1:" + port + "/demo-plant", tags);
        devices.put(DEMO_PLANT, DeviceConfig.opcua(connection));

        MqttSubscriptionConfig topics = MqttSubscriptionConfig.json(SimulatedPlant.MQTT_TOPIC_FILTER,
                SimulatedPlant.MQTT_TAG_TEMPLATE, DataType.FLOAT64, SimulatedPlant.MQTT_VALUE_PATH,
                Optional.of(SimulatedPlant.MQTT_TIMESTAMP_PATH), Optional.of(SimulatedPlant.MQTT_QUALITY_PATH));
        List<MqttWritableTagConfig> writable = SimulatedPlant.topics().stream()
                .filter(topic -> topic.commandTopic().isPresent())
                .map(topic -> new MqttWritableTagConfig(topic.tagPath(), topic.commandTopic().get(), 1,
                        PayloadFormat.JSON, false))
                .toList();
        MqttConnectionConfig mqtt = MqttConnectionConfig.of(plant.mqttHost(), mqttPort, List.of(topics))
                .withWritableTags(writable)
                .withCredentials(plant.mqttCredentials().username(), plant.mqttCredentials().password());
        devices.put(DEMO_PLANT_MQTT, DeviceConfig.mqtt(mqtt));
        return plant;
    }

    /** The gateway's name as it goes into MQTT client ids: lower case, runs of other characters as -. */
    private static String gatewayId(GatewayConfig config) {
        return config.gateway().name().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    }

    /** Readiness and degraded parts, as /health reports them. */
    public GatewayStatus status() {
        return status;
    }

    public Lifecycle lifecycle() {
        return lifecycle;
    }

    /** Users, sessions and API tokens (for tests and the command line). */
    public Auth auth() {
        return auth;
    }

    public ConsoleServer console() {
        return console;
    }

    /** What makes the running gateway match a configuration written through the API ({@link LiveApply}). */
    public ConfigApplier configApplier() {
        return configApplier;
    }

    /**
     * Reads the configuration file again after a hand edit (SIGHUP), as {@code POST /api/v1/config/reload}
     * does, and logs the outcome; audited as made by {@code system}.
     */
    public void reloadConfiguration(String why) {
        ConfigChanges.Outcome outcome = configWrites.reload(new ConfigChanges.Author("system", why, "file", "local"));
        org.slf4j.Logger log = LoggerFactory.getLogger(Gateway.class);
        if (outcome instanceof ConfigChanges.Written written && written.diff().isEmpty()) {
            log.info("Configuration reloaded ({}): nothing changed, revision {}", why, written.revision());
        } else if (outcome instanceof ConfigChanges.Written written) {
            log.info("Configuration reloaded ({}): revision {}; {} key(s) changed; applied live: {}; waiting for a"
                    + " restart: {}", why, written.revision(), written.diff().size(), written.applied(),
                    written.needRestart());
        } else if (outcome instanceof ConfigChanges.Invalid invalid) {
            log.warn("Configuration not reloaded ({}): {}: {}", why, invalid.error(), invalid.problems().stream()
                    .map(p -> p.key() + ": " + p.message()).collect(java.util.stream.Collectors.joining("; ")));
        } else if (outcome instanceof ConfigChanges.Stale stale) {
            log.warn("Configuration not reloaded ({}): {}", why, stale.error());
        }
    }

    /** The running pipelines; empty when the gateway started with none. */
    public Optional<Pipelines> pipelines() {
        return pipelines;
    }

    public TagBus tagBus() {
        return tagBus;
    }

    public EventJournal events() {
        return events;
    }

    /** The loss ledger with its metrics and alarms. */
    public LossRecorder losses() {
        return losses;
    }

    /** The audit journal, read as the console reads it. */
    public AuditAccess audit() {
        return new AuditJournalAccess(auditJournal.store());
    }

    public Duration shutdownGracePeriod() {
        return Duration.ofMillis(config.lifecycle().shutdownGracePeriodMs());
    }

    /** Ends what outlives the lifecycle's stop: the metrics, and the wait for removed connections to drain. */
    public void closeMetrics() {
        outbound.close();
        metrics.close();
    }
}
