import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config/config.js';
import type { Db } from './db/database.js';
import { probeEngine } from './docker/index.js';
import { AlertsService, createAlertsStore, createRulesStore } from './modules/alerts/index.js';
import { AuthService, createAuthStore } from './modules/auth/index.js';
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
import { createEventsStore, EventsService } from './modules/events/index.js';
import {
  createHealthChecksStore,
  HealthChecker,
  HealthChecksService,
} from './modules/health-checks/index.js';
import {
  createHostsStore,
  HostsService,
  registeredHost,
  type ProbeEngine,
} from './modules/hosts/index.js';
import { MonitorService } from './modules/monitor/index.js';
import { createNotificationsStore, NotificationsService } from './modules/notifications/index.js';
import { RetentionService } from './modules/retention/index.js';
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

/** The services of a running app, for main, tests and the routes. */
export interface AppServices {
  db: Db;
  hub: LiveHub;
  auth: AuthService;
  settings: SettingsService;
  preferences: PreferencesService;
  events: EventsService;
  hosts: HostsService;
  alerts: AlertsService;
  notifications: NotificationsService;
  updates: UpdatesService;
  monitor: MonitorService;
  containers: ContainersService;
  containerSettings: ContainerSettingsService;
  autoRestart: AutoRestarter;
  containerLogs: ContainerLogsService;
  batch: BatchService;
  healthChecks: HealthChecksService;
  retention: RetentionService;
  probe: ProbeEngine;
  version: string;
  /** Berth's own newer release, read from BERTH_RELEASE_FEED_URL. */
  release: ReleaseFeedChecker;
  upgradeNotice: UpgradeNoticeService;
}

/** The composition root: every service built once, each given what it needs. */
export async function createServices(
  config: AppConfig,
  db: Db,
  log: FastifyBaseLogger,
): Promise<AppServices> {
  const hub = new LiveHub(log);
  const settings = new SettingsService(createSettingsStore(db), log);
  await settings.load();
  const version = readVersion();
  const release = new ReleaseFeedChecker({
    url: config.releaseFeedUrl,
    currentVersion: version,
    log,
  });
  settings.setReleaseSource(() => release.newerRelease());
  const probe: ProbeEngine = (endpoint) =>
    probeEngine(endpoint, settings.get().connection_timeout * 1000);
  const events = new EventsService(createEventsStore(db), hub);
  // The alert engine hands notifications due to the outbox; the summary after a blackout
  // and the dependent-rules answer read the alerts back (the closures run after start).
  const notifications: NotificationsService = new NotificationsService({
    store: createNotificationsStore(db),
    box: SecretBox.open(config.dataDir),
    settings,
    hub,
    record: (event) => events.record(event),
    unresolvedAlerts: () => alerts.lifecycle.unresolved(),
    rules: {
      usingChannel: (id) => alerts.rules.usingChannel(id),
      forgetChannel: (id) => alerts.rules.forgetChannel(id),
    },
    endpoints: config.notificationEndpoints,
    log,
    outbox: {
      retryDelayMs: (n) => Math.min(config.notificationRetryBaseMs * 2 ** (n - 1), 3_600_000),
    },
  });
  const alerts: AlertsService = new AlertsService({
    store: createAlertsStore(db),
    rulesStore: createRulesStore(db),
    hub,
    record: (event) => events.record(event),
    log,
    notify: notifications,
  });
  const updates = new UpdatesService(createUpdatesStore(db), SecretBox.open(config.dataDir));
  const hosts = new HostsService(
    createHostsStore(db),
    SecretBox.open(config.dataDir),
    events,
    hub,
    probe,
    {
      alertsByHost: () => alerts.countsByHost(),
      updatesByHost: () => updates.countsByHost(),
      resolveAlertsOf: (hostId) => alerts.resolveForHost(hostId),
    },
    null,
    log,
  );
  const containerSettings = new ContainerSettings(createContainerSettingsStore(db));
  await containerSettings.load();
  const monitor = new MonitorService({
    log,
    hub,
    events,
    settings,
    hosts,
    containerSettings,
    statsSource: config.statsSource,
  });
  hosts.attachRuntime(monitor);
  const isUpdating = (hostId: string, name: string) => updates.isUpdating(hostId, name);
  const containers = new ContainersService(monitor, events, isUpdating);
  const containerSettingsService = new ContainerSettingsService(monitor, containerSettings, events);
  alerts.attachEngine(monitor, async () => (await hosts.rows()).map(registeredHost), hosts);
  const batch = new BatchService({
    store: createBatchStore(db),
    hub,
    fleet: monitor,
    containers,
    containerSettings: containerSettingsService,
    updates,
    log,
  });
  await batch.closeInterrupted();
  const healthStore = createHealthChecksStore(db);
  const healthChecks = new HealthChecksService({
    fleet: monitor,
    store: healthStore,
    box: SecretBox.open(config.dataDir),
    checker: new HealthChecker({
      fleet: monitor,
      events,
      hub,
      store: healthStore,
      // health_check_failed is raised and resolved through the alert engine's signal.
      alerts: { signal: (s) => alerts.signal(s) },
      log,
    }),
  });
  updates.attach({
    fleet: monitor,
    settings,
    containerSettings,
    setAutoUpdate: (h, c, enabled, mode, user) =>
      containerSettingsService.setAutoUpdate(h, c, enabled, mode, user),
    record: (event) => events.record(event),
    hub,
    log,
    alerts: { signal: (s) => alerts.signal(s) },
    // Alert rules with suppress_during_updates and HTTP health checks hold still meanwhile.
    onUpdating: [
      (h, name, on) => alerts.setUpdating(h, name, on),
      (h, name, on) => healthChecks.setUpdating(h, name, on),
    ],
  });
  const auth = new AuthService(createAuthStore(db), log);
  return {
    db,
    hub,
    auth,
    settings,
    preferences: new PreferencesService(createPreferencesStore(db)),
    events,
    hosts,
    alerts,
    notifications,
    updates,
    monitor,
    containers,
    containerSettings: containerSettingsService,
    batch,
    healthChecks,
    retention: new RetentionService({
      settings,
      events,
      batch,
      alerts,
      auth,
      containerSettings: containerSettingsService,
      log,
    }),
    containerLogs: new ContainerLogsService(monitor),
    autoRestart: new AutoRestarter({
      fleet: monitor,
      settings,
      containerSettings,
      events,
      hub,
      log,
      updating: isUpdating,
    }),
    probe,
    version,
    release,
    upgradeNotice: new UpgradeNoticeService(createUpgradeNoticeStore(db), version),
  };
}
