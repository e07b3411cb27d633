import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config/config.js';
import type { Db } from './db/database.js';
import { AgentTunnels, AgentWork, probeEngine } from './docker/index.js';
import { AgentsService, createAgentsStore } from './modules/agents/index.js';
import { ApiKeysService, createApiKeysStore } from './modules/api-keys/index.js';
import { AlertsService, createAlertsStore, createRulesStore } from './modules/alerts/index.js';
import { AuditService, createAuditStore } from './modules/audit/index.js';
import { createAuthStore } from './modules/auth/index.js';
import { BatchService, createBatchStore } from './modules/batch/index.js';
import {
  ContainerSettings,
  ContainerSettingsService,
  createContainerSettingsStore,
} from './modules/container-settings/index.js';
import {
  AutoRestarter,
  ContainerLogsService,
  ContainersService,
} from './modules/containers/index.js';
import { ContainerView } from './modules/container-view/index.js';
import { createEventsStore, EventsService } from './modules/events/index.js';
import { MetricsExportService } from './modules/metrics-export/index.js';
import {
  createHealthChecksStore,
  HealthChecker,
  HealthChecksService,
} from './modules/health-checks/index.js';
import {
  createHostsStore,
  HostsService,
  HostTagIndex,
  registeredHost,
  type ProbeEngine,
} from './modules/hosts/index.js';
import {
  agentEngineDisk,
  createContainerStatesStore,
  MonitorService,
} from './modules/monitor/index.js';
import { createMqttStore, MqttService } from './modules/mqtt/index.js';
import { samplesFromAgent } from './modules/stats/index.js';
import { createNotificationsStore, NotificationsService } from './modules/notifications/index.js';
import { Restarter, RestartBudgets } from './modules/restarts/index.js';
import { RetentionService } from './modules/retention/index.js';
import {
  createMetricsHistoryStore,
  createWindowMeans,
  MetricsHistoryService,
  retentionFromSettings,
} from './modules/metrics-history/index.js';
import {
  createPreferencesStore,
  createSettingsStore,
  createUpgradeNoticeStore,
  PreferencesService,
  SettingsService,
  UpgradeNoticeService,
} from './modules/settings/index.js';
import { readVersion, ReleaseFeedChecker } from './modules/system/index.js';
import { createUpdatesStore, UpdatesService } from './modules/updates/index.js';
import { LiveHub } from './platform/live-hub.js';
import { SecretBox } from './platform/secret-box.js';
import { createAccessServices } from './services-access.js';
import { createOperateServices } from './services-operate.js';
import type { AppServices } from './app-services.js';

export type { AppServices } from './app-services.js';

/** The composition root: every service built once, each given what it needs. */
export async function createServices(
  config: AppConfig,
  db: Db,
  log: FastifyBaseLogger,
): Promise<AppServices> {
  const hub = new LiveHub(log);
  const version = readVersion();
  const release = new ReleaseFeedChecker({
    url: config.releaseFeedUrl,
    currentVersion: version,
    log,
  });
  const settings = new SettingsService(createSettingsStore(db), log, () => release.newerRelease());
  await settings.load();
  const probe: ProbeEngine = (endpoint) =>
    probeEngine(endpoint, settings.get().connection_timeout * 1000);
  const events = new EventsService(createEventsStore(db), hub);
  // The alert engine hands notifications due to the outbox; the summary after a blackout
  // reads which alerts are still open from the alerts' store, which both share.
  const alertsStore = createAlertsStore(db);
  const notifications = new NotificationsService({
    store: createNotificationsStore(db),
    box: SecretBox.open(config.dataDir),
    settings,
    hub,
    record: (event) => events.record(event),
    unresolvedAlerts: () => alertsStore.unresolved(),
    endpoints: config.notificationEndpoints,
    log,
    outbox: {
      retryDelayMs: (n) => Math.min(config.notificationRetryBaseMs * 2 ** (n - 1), 3_600_000),
    },
  });
  const agentTunnels = new AgentTunnels();
  const hosts = new HostsService(
    createHostsStore(db),
    SecretBox.open(config.dataDir),
    events,
    probe,
    log,
    (agentId) => agentTunnels.dialerOf(agentId),
  );
  const containerSettings = new ContainerSettings(createContainerSettingsStore(db));
  await containerSettings.load();
  hosts.on('hostRemoved', ({ host }) => containerSettings.forgetHost(host.id));
  // Which hosts a scoped user reaches: every host's tags, current with each change.
  const hostTags = new HostTagIndex((await hosts.list()).map(registeredHost), hosts);
  // Live messages about a host reach the sockets whose scope reaches it (decision 034); when a
  // host's tags change or it goes, scoped sockets get their state again (after the index has it).
  hub.useHostTags((hostId) => hostTags.tagsOf(hostId));
  hosts.on('hostChanged', ({ host, previous }) => {
    if (host.tags.join('\n') !== previous.tags.join('\n')) hub.reachChanged();
  });
  hosts.on('hostRemoved', () => hub.reachChanged());
  // Work next to an agent host's engine runs on its agent when it can (decision 023).
  const agentWork = new AgentWork(agentTunnels);
  const monitor = new MonitorService({
    log,
    hub,
    events,
    settings,
    hosts,
    statsSource: config.statsSource,
    containerStates: createContainerStatesStore(db),
    agentDisk: (url) => {
      const agentId = agentWork.agentFor(url, 'host-metrics');
      return agentId === null ? null : agentEngineDisk(agentWork.hostMetrics(agentId));
    },
    agentStats: (url) => {
      const agentId = agentWork.agentFor(url, 'container-stats');
      if (agentId === null) return null;
      return async (targets) => samplesFromAgent(await agentWork.containerStats(agentId, targets));
    },
  });
  const authStore = createAuthStore(db);
  const audit = new AuditService({
    store: createAuditStore(db),
    names: {
      hostName: (hostId) => monitor.host(hostId)?.name,
      containerName: (hostId, containerId) => monitor.container(hostId, containerId)?.name,
      // Users and sessions by name: read once per change to them, off every other path.
      targetName: async (collection, id) => {
        if (collection === 'sessions') return sessions.describe(id);
        const user = await authStore.findUserById(Number(id));
        return user === undefined ? null : `user ${user.username}`;
      },
    },
    log,
  });
  const agents = new AgentsService({
    store: createAgentsStore(db),
    hosts,
    tunnels: agentTunnels,
    onConnected: (hostId) => monitor.retryNow(hostId),
    record: (event) => events.record(event),
    log,
  });
  const alerts = new AlertsService({
    store: alertsStore,
    rulesStore: createRulesStore(db),
    hub,
    record: (event) => events.record(event),
    log,
    notify: notifications,
    fleet: monitor,
    hostDirectory: async () => (await hosts.list()).map(registeredHost),
    hostEvents: hosts,
    settingsOf: (hostId, name) => containerSettings.get(hostId, name),
    // Look-back rules read their window's mean from metrics history (decision 039), within
    // what its 10 s tier keeps: each side refuses a change that would break that.
    lookBack: createWindowMeans(db),
    history10sHours: () => settings.get().history_10s_retention_hours,
  });
  settings.addCheck({
    keys: ['history_10s_retention_hours'],
    issue: (next) => alerts.rules.history10sIssue(next.history_10s_retention_hours),
  });
  const containerSettingsService = new ContainerSettingsService(monitor, containerSettings, events);
  const healthStore = createHealthChecksStore(db);
  // One restart path and one safety budget per container for auto-restart and health checks.
  const restartBudgets = new RestartBudgets();
  const restarter = new Restarter({ fleet: monitor, budgets: restartBudgets });
  const healthChecks = new HealthChecksService({
    fleet: monitor,
    store: healthStore,
    box: SecretBox.open(config.dataDir),
    checker: new HealthChecker({
      fleet: monitor,
      restarter,
      events,
      hub,
      store: healthStore,
      // health_check_failed is raised and resolved through the alert engine's signal.
      alerts: { signal: (s) => alerts.signal(s) },
      log,
      probeAt: (hostId) => {
        const agentId = agentWork.agentFor(monitor.urlOf(hostId), 'http-probe');
        return agentId === null ? null : (req) => agentWork.httpProbe(agentId, req);
      },
    }),
  });
  const updates = new UpdatesService(createUpdatesStore(db), SecretBox.open(config.dataDir), {
    fleet: monitor,
    settings,
    containerSettings,
    setAutoUpdate: (h, c, enabled, mode, user) =>
      containerSettingsService.setAutoUpdate(h, c, enabled, mode, user),
    record: (event) => events.record(event),
    hub,
    log,
    alerts: { signal: (s) => alerts.signal(s) },
    audit,
    // Alert rules with suppress_during_updates and HTTP health checks hold still meanwhile.
    onUpdating: [
      (h, name, on) => alerts.setUpdating(h, name, on),
      (h, name, on) => healthChecks.setUpdating(h, name, on),
    ],
  });
  const isUpdating = (hostId: string, name: string) => updates.isUpdating(hostId, name);
  const containers = new ContainersService(monitor, events, isUpdating);
  const batch = new BatchService({
    store: createBatchStore(db),
    hub,
    fleet: monitor,
    containers,
    containerSettings: containerSettingsService,
    updates,
    log,
    audit,
  });
  await batch.closeInterrupted();
  const operate = createOperateServices({
    db,
    log,
    monitor,
    agentWork,
    containers,
    updates,
    settings,
    audit,
  });
  const containerView = new ContainerView({
    fleet: monitor,
    hub,
    settings,
    containerSettings,
    hosts,
    counts: {
      alertsByHost: () => alerts.countsByHost(),
      updatesByHost: () => updates.countsByHost(),
      agentsByHost: () => agents.agentHosts(),
    },
  });
  const mqtt = new MqttService({
    store: createMqttStore(db),
    box: SecretBox.open(config.dataDir),
    fleet: monitor,
    containers,
    record: (event) => events.record(event),
    audit,
    updatesSummary: () => updates.summary(),
    tapLive: (listener) => hub.tap(listener),
    log,
  });
  const { auth, sessions, twoFactor, users, sso } = await createAccessServices({
    config,
    db,
    log,
    hub,
    audit,
    authStore,
  });
  const apiKeys = new ApiKeysService(createApiKeysStore(db), {
    userById: (id) => auth.user(id),
    recordEvent: (event) => events.record(event),
  });
  const metricsExport = new MetricsExportService({
    store: createSettingsStore(db),
    fleet: monitor,
    hosts: async () =>
      (await containerView.hosts(await hosts.list())).map((h) => ({
        id: h.id,
        name: h.name,
        status: h.status,
        connection: h.connection.type,
      })),
    updatesAvailable: async () => (await updates.summary()).containers_with_updates,
    alerts: () => alerts.unresolvedCounts(),
    outbox: () => notifications.outboxCounts(),
    eventsStored: () => events.storedCount(),
    liveSockets: () => hub.connectionCount,
    record: (event) => events.record(event),
    log,
  });
  await metricsExport.load();
  return {
    db,
    hub,
    agents,
    agentTunnels,
    auth,
    sessions,
    apiKeys,
    users,
    audit,
    twoFactor,
    settings,
    preferences: new PreferencesService(createPreferencesStore(db)),
    events,
    hosts,
    hostTags,
    alerts,
    notifications,
    updates,
    monitor,
    containerView,
    metricsExport,
    containers,
    containerSettings: containerSettingsService,
    batch,
    ...operate,
    healthChecks,
    metricsHistory: new MetricsHistoryService({
      store: createMetricsHistoryStore(db),
      fleet: monitor,
      log,
      retention: retentionFromSettings(settings),
    }),
    retention: new RetentionService({
      settings,
      events,
      batch,
      alerts,
      auth,
      containerSettings: containerSettingsService,
      audit,
      log,
    }),
    containerLogs: new ContainerLogsService(monitor),
    restartBudgets,
    autoRestart: new AutoRestarter({
      fleet: monitor,
      restarter,
      settings,
      containerSettings,
      events,
      hub,
      log,
      updating: isUpdating,
      audit,
    }),
    probe,
    version,
    release,
    upgradeNotice: new UpgradeNoticeService(createUpgradeNoticeStore(db), version),
    mqtt,
    sso,
  };
}
