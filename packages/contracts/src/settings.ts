import { z } from 'zod';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const TIME_MESSAGE = 'Invalid time format. Use HH:MM (24-hour format)';

/** A maintenance window during which alerts are held back (spec 3 §3). */
export const blackoutWindowSchema = z.strictObject({
  name: z.string().trim().min(1, 'Required').max(100),
  enabled: z.boolean(),
  start_time: z.string().regex(HH_MM, TIME_MESSAGE),
  end_time: z.string().regex(HH_MM, TIME_MESSAGE),
  /** 0 = Monday ... 6 = Sunday */
  days: z.array(z.number().int().min(0).max(6)).min(1, 'Select at least one day').max(7),
});
export type BlackoutWindow = z.infer<typeof blackoutWindowSchema>;

const bounded = (min: number, max: number, message?: string) =>
  z
    .number()
    .int()
    .min(min, message ?? `Must be between ${min} and ${max}`)
    .max(max, message ?? `Must be between ${min} and ${max}`);

const template = z.string().max(10_000).nullable();

/** The global settings a user may write (spec 3 §3, bounds of §5). */
export const writableSettingsShape = {
  /** Minutes east of UTC (the negated browser offset). */
  timezone_offset: z.number().int().min(-720).max(840),
  alert_template: template,
  alert_template_metric: template,
  alert_template_state_change: template,
  alert_template_health: template,
  alert_template_update: template,
  blackout_windows: z.array(blackoutWindowSchema).max(50),
  polling_interval: bounded(1, 600),
  connection_timeout: bounded(5, 120),
  max_retries: bounded(0, 10),
  retry_delay: bounded(5, 300),
  default_auto_restart: z.boolean(),
  unused_tag_retention_days: bounded(0, 365),
  event_retention_days: bounded(0, 365),
  alert_retention_days: bounded(0, 730),
  update_check_time: z.string().regex(HH_MM, TIME_MESSAGE),
  skip_compose_containers: z.boolean(),
  health_check_timeout_seconds: bounded(10, 600, 'Timeout must be between 10 and 600 seconds'),
  dismissed_dockmon_update_version: z.string().max(50).nullable(),
};

export const globalSettingsSchema = z.object({
  ...writableSettingsShape,
  /** Read-only: whether a newer Berth release is known. */
  update_available: z.boolean(),
  /** Read-only: the newest known Berth release, if any. */
  latest_available_version: z.string().nullable(),
});
export type GlobalSettings = z.infer<typeof globalSettingsSchema>;

/** PUT /api/settings: any subset of the writable settings; unknown keys are refused. */
export const updateSettingsRequestSchema = z.strictObject(writableSettingsShape).partial();
export type UpdateSettingsRequest = z.infer<typeof updateSettingsRequestSchema>;
export type WritableSettings = Omit<
  GlobalSettings,
  'update_available' | 'latest_available_version'
>;

/** Defaults of spec 3 §9. */
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
  update_check_time: '02:00',
  skip_compose_containers: true,
  health_check_timeout_seconds: 120,
  dismissed_dockmon_update_version: null,
};
