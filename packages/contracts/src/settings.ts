import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { METRICS_TIERS } from './metrics-history.js';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const TIME_MESSAGE = 'Invalid time format. Use HH:MM (24-hour format)';

/** A maintenance window during which alerts are held back. */
export const blackoutWindowSchema = lazySchema(() =>
  z.strictObject({
    name: z.string().trim().min(1, 'Required').max(100),
    enabled: z.boolean(),
    start_time: z.string().regex(HH_MM, TIME_MESSAGE),
    end_time: z.string().regex(HH_MM, TIME_MESSAGE),
    /** 0 = Monday ... 6 = Sunday */
    days: z.array(z.number().int().min(0).max(6)).min(1, 'Select at least one day').max(7),
  }),
);
export type BlackoutWindow = z.infer<typeof blackoutWindowSchema>;

/** The numeric settings' bounds; the server and the System tab both read them. */
export const SETTING_BOUNDS = {
  polling_interval: { min: 1, max: 600 },
  connection_timeout: { min: 5, max: 120 },
  max_retries: { min: 0, max: 10 },
  retry_delay: { min: 5, max: 300 },
  event_retention_days: { min: 0, max: 365 },
  unused_tag_retention_days: { min: 0, max: 365 },
  alert_retention_days: { min: 0, max: 730 },
  audit_retention_days: { min: 0, max: 3650 },
  health_check_timeout_seconds: { min: 10, max: 600 },
  // Metrics history's tiers (decision 036): a tier kept for ever would grow without end.
  history_10s_retention_hours: { min: 1, max: 168 },
  history_1m_retention_hours: { min: 1, max: 2160 },
  history_15m_retention_hours: { min: 1, max: 17_520 },
  exec_idle_minutes: { min: 1, max: 1440 },
  exec_recording_days: { min: 1, max: 365 },
} as const;
export type BoundedSetting = keyof typeof SETTING_BOUNDS;

/** The message of a value outside a setting's bounds (the health check timeout has its own). */
export function settingBoundMessage(key: BoundedSetting): string {
  const { min, max } = SETTING_BOUNDS[key];
  return key === 'health_check_timeout_seconds'
    ? `Timeout must be between ${min} and ${max} seconds`
    : `Must be between ${min} and ${max}`;
}

const bounded = (key: BoundedSetting) =>
  z
    .number()
    .int('Must be a whole number')
    .min(SETTING_BOUNDS[key].min, settingBoundMessage(key))
    .max(SETTING_BOUNDS[key].max, settingBoundMessage(key));

const template = lazySchema(() => z.string().max(10_000).nullable());

/** The global settings a user may write, each within its bounds. */
export const writableSettingsShape = lazySchema(() => ({
  /** Minutes east of UTC (the negated browser offset). */
  timezone_offset: z.number().int().min(-720).max(840),
  alert_template: template,
  alert_template_metric: template,
  alert_template_state_change: template,
  alert_template_health: template,
  alert_template_update: template,
  blackout_windows: z.array(blackoutWindowSchema).max(50),
  polling_interval: bounded('polling_interval'),
  connection_timeout: bounded('connection_timeout'),
  max_retries: bounded('max_retries'),
  retry_delay: bounded('retry_delay'),
  default_auto_restart: z.boolean(),
  unused_tag_retention_days: bounded('unused_tag_retention_days'),
  event_retention_days: bounded('event_retention_days'),
  alert_retention_days: bounded('alert_retention_days'),
  audit_retention_days: bounded('audit_retention_days'),
  update_check_time: z.string().regex(HH_MM, TIME_MESSAGE),
  skip_compose_containers: z.boolean(),
  health_check_timeout_seconds: bounded('health_check_timeout_seconds'),
  dismissed_dockmon_update_version: z.string().max(50).nullable(),
  /** Whether viewers may read container logs (logs can hold secrets; off until an admin allows). */
  viewer_logs: z.boolean(),
  /** Hours each metrics history tier keeps its points (10 s, 1 min, 15 min). */
  history_10s_retention_hours: bounded('history_10s_retention_hours'),
  history_1m_retention_hours: bounded('history_1m_retention_hours'),
  history_15m_retention_hours: bounded('history_15m_retention_hours'),
  /** Whether operators may open a container shell (admins always may, viewers never). */
  exec_operators: z.boolean(),
  /** Minutes without input after which a container shell ends. */
  exec_idle_minutes: bounded('exec_idle_minutes'),
  /** Whether what users type in container shells is stored (kept exec_recording_days). */
  exec_recording: z.boolean(),
  exec_recording_days: bounded('exec_recording_days'),
}));

export const globalSettingsSchema = lazySchema(() =>
  z.object({
    ...writableSettingsShape,
    /** Read-only: whether a newer Berth release is known. */
    update_available: z.boolean(),
    /** Read-only: the newest known Berth release, if any. */
    latest_available_version: z.string().nullable(),
    /** Read-only: where that release's notes are (from the release feed). */
    latest_release_url: z.string().nullable(),
  }),
);
export type GlobalSettings = z.infer<typeof globalSettingsSchema>;

/** PUT /api/settings: any subset of the writable settings; unknown keys are refused. */
export const updateSettingsRequestSchema = lazySchema(() =>
  z.strictObject(writableSettingsShape).partial(),
);
export type UpdateSettingsRequest = z.infer<typeof updateSettingsRequestSchema>;
export type WritableSettings = Omit<
  GlobalSettings,
  'update_available' | 'latest_available_version' | 'latest_release_url'
>;

/**
 * The history tiers' retentions must not shrink from fine to coarse: each tier is rolled up
 * from the finer one and answers the longer ranges, so a coarser tier kept for less time
 * would leave those ranges empty while finer points still exist. Shared by the form and the
 * server; answers the field at fault and the message, or null.
 */
export function historyRetentionIssue(
  s: Pick<
    WritableSettings,
    'history_10s_retention_hours' | 'history_1m_retention_hours' | 'history_15m_retention_hours'
  >,
): { field: BoundedSetting; message: string } | null {
  if (s.history_1m_retention_hours < s.history_10s_retention_hours)
    return {
      field: 'history_1m_retention_hours',
      message: `Must be at least the 10-second history's ${s.history_10s_retention_hours} hours`,
    };
  if (s.history_15m_retention_hours < s.history_1m_retention_hours)
    return {
      field: 'history_15m_retention_hours',
      message: `Must be at least the 1-minute history's ${s.history_1m_retention_hours} hours`,
    };
  return null;
}

/** The settings before anyone changes them. */
export const DEFAULT_SETTINGS: WritableSettings = {
  timezone_offset: 0,
  alert_template: null,
  alert_template_metric: null,
  alert_template_state_change: null,
  alert_template_health: null,
  alert_template_update: null,
  blackout_windows: [],
  polling_interval: 2,
  connection_timeout: 10,
  max_retries: 3,
  retry_delay: 30,
  default_auto_restart: false,
  unused_tag_retention_days: 30,
  event_retention_days: 60,
  alert_retention_days: 90,
  audit_retention_days: 365,
  update_check_time: '02:00',
  skip_compose_containers: true,
  health_check_timeout_seconds: 120,
  dismissed_dockmon_update_version: null,
  viewer_logs: false,
  history_10s_retention_hours: METRICS_TIERS[0].default_retention_hours,
  history_1m_retention_hours: METRICS_TIERS[1].default_retention_hours,
  history_15m_retention_hours: METRICS_TIERS[2].default_retention_hours,
  exec_operators: false,
  exec_idle_minutes: 15,
  exec_recording: false,
  exec_recording_days: 30,
};

/** A release as Berth's release feed (BERTH_RELEASE_FEED_URL) announces it. */
export const releaseFeedSchema = lazySchema(() =>
  z.object({
    version: z
      .string()
      .trim()
      .regex(
        /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/,
        'must be a semantic version',
      ),
    url: z.url().refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) address'),
    notes: z.string().max(20_000),
  }),
);
export type ReleaseFeed = z.infer<typeof releaseFeedSchema>;

/** POST /api/user/dismiss-dockmon-update and /api/user/dismiss-update. */
export const dismissUpdateRequestSchema = lazySchema(() =>
  z.strictObject({
    version: z.string().trim().min(1, 'Required').max(50),
  }),
);
export type DismissUpdateRequest = z.infer<typeof dismissUpdateRequestSchema>;

/** GET /api/upgrade-notice: the running version and whether this user should see what changed. */
export const upgradeNoticeSchema = lazySchema(() =>
  z.object({
    version: z.string(),
    show_notice: z.boolean(),
  }),
);
export type UpgradeNotice = z.infer<typeof upgradeNoticeSchema>;
