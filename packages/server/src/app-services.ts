import type { Db } from './db/database.js';
import type { AgentTunnels } from './docker/index.js';
import type { AgentsService } from './modules/agents/index.js';
import type { ApiKeysService } from './modules/api-keys/index.js';
import type { AlertsService } from './modules/alerts/index.js';
import type { AuditService } from './modules/audit/index.js';
import type { AuthService, SessionsService } from './modules/auth/index.js';
import type { BatchService } from './modules/batch/index.js';
import type { ContainerSettingsService } from './modules/container-settings/index.js';
import type {
  AutoRestarter,
  ContainerLogsService,
  ContainersService,
} from './modules/containers/index.js';
import type { ContainerView } from './modules/container-view/index.js';
import type { EventsService } from './modules/events/index.js';
import type { MetricsExportService } from './modules/metrics-export/index.js';
import type { HealthChecksService } from './modules/health-checks/index.js';
import type { HostsService, HostTagIndex, ProbeEngine } from './modules/hosts/index.js';
import type { MonitorService } from './modules/monitor/index.js';
import type { MqttService } from './modules/mqtt/index.js';
import type { NotificationsService } from './modules/notifications/index.js';
import type { RestartBudgets } from './modules/restarts/index.js';
import type { RetentionService } from './modules/retention/index.js';
import type { MetricsHistoryService } from './modules/metrics-history/index.js';
import type {
  PreferencesService,
  SettingsService,
  UpgradeNoticeService,
} from './modules/settings/index.js';
import type { ReleaseFeedChecker } from './modules/system/index.js';
import type { TwoFactorService } from './modules/two-factor/index.js';
import type { UpdatesService } from './modules/updates/index.js';
import type { SsoService } from './modules/sso/index.js';
import type { UsersService } from './modules/users/index.js';
import type { LiveHub } from './platform/live-hub.js';
import type { OperateServices } from './services-operate.js';

/** The services of a running app, for main, tests and the routes. */
export interface AppServices extends OperateServices {
  db: Db;
  hub: LiveHub;
  auth: AuthService;
  /** Every user's sessions: their own list, an admin's view of all, ending them. */
  sessions: SessionsService;
  apiKeys: ApiKeysService;
  users: UsersService;
  /** TOTP two-factor sign-in, its recovery codes and the roles that must use it. */
  twoFactor: TwoFactorService;
  /** The append-only audit log of changes and sign-ins. */
  audit: AuditService;
  settings: SettingsService;
  preferences: PreferencesService;
  events: EventsService;
  hosts: HostsService;
  hostTags: HostTagIndex;
  agents: AgentsService;
  /** Every connected agent's tunnel, by agent id. */
  agentTunnels: AgentTunnels;
  alerts: AlertsService;
  notifications: NotificationsService;
  updates: UpdatesService;
  monitor: MonitorService;
  containerView: ContainerView;
  /** Prometheus's /metrics and its setting. */
  metricsExport: MetricsExportService;
  containers: ContainersService;
  containerSettings: ContainerSettingsService;
  autoRestart: AutoRestarter;
  /** Every container's safety budget of automatic restarts. */
  restartBudgets: RestartBudgets;
  containerLogs: ContainerLogsService;
  batch: BatchService;
  healthChecks: HealthChecksService;
  retention: RetentionService;
  /** Each host's and container's metrics over time (decision 036). */
  metricsHistory: MetricsHistoryService;
  probe: ProbeEngine;
  version: string;
  /** Berth's own newer release, read from BERTH_RELEASE_FEED_URL. */
  release: ReleaseFeedChecker;
  upgradeNotice: UpgradeNoticeService;
  /** MQTT with Home Assistant discovery (Settings → Integrations). */
  mqtt: MqttService;
  /** Single sign-on with an OpenID Connect provider (Settings → Authentication). */
  sso: SsoService;
}
