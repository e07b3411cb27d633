import type {
  AlertSeverity,
  NotificationRequest,
  TemplateKind,
  TemplatePreview,
  WritableSettings,
} from '@berth/contracts';

/** The variables of GET /api/notifications/template-variables, in the editor's order. */
export const TEMPLATE_VARIABLES: { name: string; description: string }[] = [
  { name: '{SEVERITY}', description: 'Severity, in capitals (CRITICAL, ERROR, WARNING, INFO)' },
  { name: '{KIND}', description: 'What happened, e.g. Container stopped, High CPU' },
  { name: '{TITLE}', description: "The alert's title" },
  { name: '{MESSAGE}', description: "The alert's message" },
  { name: '{HOST_NAME}', description: 'Name of the host' },
  { name: '{HOST_ID}', description: 'Id of the host' },
  { name: '{CONTAINER_NAME}', description: 'Name of the container (container alerts)' },
  { name: '{RULE_NAME}', description: 'Name of the alert rule' },
  { name: '{RULE_ID}', description: 'Id of the alert rule' },
  { name: '{ALERT_ID}', description: 'Id of the alert' },
  { name: '{STATE}', description: 'Alert state: open, snoozed or resolved' },
  { name: '{TIMESTAMP}', description: 'When the notification was due, in your time zone' },
  { name: '{FIRST_SEEN}', description: 'When the alert was first raised, in your time zone' },
  { name: '{LAST_SEEN}', description: 'When the condition was last seen, in your time zone' },
  { name: '{OCCURRENCES}', description: 'How many times the condition occurred' },
  { name: '{CURRENT_VALUE}', description: 'The measured value (metric alerts)' },
  { name: '{THRESHOLD}', description: "The rule's threshold (metric alerts)" },
  { name: '{OLD_STATE}', description: 'State before the change (state alerts)' },
  { name: '{NEW_STATE}', description: 'State after the change (state alerts)' },
  { name: '{EXIT_CODE}', description: 'Exit code with its meaning (stopped containers)' },
  { name: '{RESTART_COUNT}', description: 'Restarts counted (restart alerts)' },
  { name: '{HEALTH_STATUS}', description: 'Health status (health alerts)' },
  { name: '{UPDATE_STATUS}', description: 'Available, Succeeded or Failed (update alerts)' },
  { name: '{ERROR_MESSAGE}', description: 'The error reported, if any' },
];
const KNOWN = new Set(TEMPLATE_VARIABLES.map((v) => v.name.slice(1, -1)));

const FOOTER = '**Time:** {TIMESTAMP}\n**Rule:** {RULE_NAME}';

/** Built-in templates; a line whose variables are all empty is left out. */
export const DEFAULT_TEMPLATES: Record<TemplateKind, string> = {
  default: `🚨 **{SEVERITY}: {KIND}**\n\n**Host:** {HOST_NAME}\n**Container:** {CONTAINER_NAME}\n**Details:** {MESSAGE}\n${FOOTER}`,
  metric: `📈 **{SEVERITY}: {KIND}**\n\n**Host:** {HOST_NAME}\n**Container:** {CONTAINER_NAME}\n**Current value:** {CURRENT_VALUE} (threshold {THRESHOLD})\n**Details:** {MESSAGE}\n${FOOTER}`,
  state_change: `🚨 **{SEVERITY}: {KIND}**\n\n**Host:** {HOST_NAME}\n**Container:** {CONTAINER_NAME}\n**State:** {OLD_STATE} → {NEW_STATE}\n**Exit code:** {EXIT_CODE}\n**Details:** {MESSAGE}\n${FOOTER}`,
  health: `🩺 **{SEVERITY}: {KIND}**\n\n**Host:** {HOST_NAME}\n**Container:** {CONTAINER_NAME}\n**Health:** {HEALTH_STATUS}\n**Details:** {MESSAGE}\n**Error:** {ERROR_MESSAGE}\n${FOOTER}`,
  update: `🔄 **Container update: {UPDATE_STATUS}**\n\n**Host:** {HOST_NAME}\n**Container:** {CONTAINER_NAME}\n**Details:** {MESSAGE}\n${FOOTER}`,
};

const KIND_LABEL: Record<string, string> = {
  cpu_high: 'High CPU',
  memory_high: 'High memory',
  disk_low: 'Low disk space',
  container_unhealthy: 'Container unhealthy',
  health_check_failed: 'Health check failed',
  container_stopped: 'Container stopped',
  container_restart: 'Container restarting',
  host_down: 'Host down',
  update_available: 'Update available',
  update_completed: 'Update completed',
  update_failed: 'Update failed',
};
export const kindLabel = (kind: string): string => KIND_LABEL[kind] ?? kind;

const EXIT_MEANING: Record<string, string> = {
  '0': 'clean exit',
  '1': 'application error',
  '125': 'the engine could not run it',
  '126': 'command not executable',
  '127': 'command not found',
  '137': 'SIGKILL: killed, or out of memory',
  '139': 'SIGSEGV: crashed',
  '143': 'SIGTERM: stopped',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** `2025-03-01 14:05:09 UTC+01:00` in the user's timezone_offset (minutes east of UTC). */
export function formatTime(iso: string | null, offsetMinutes: number): string {
  if (iso === null) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ` +
    `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** `45s`, `3m 12s`, `2h 5m`, `1d 3h`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

const text = (v: string | number | boolean | null | undefined): string =>
  v === undefined || v === null ? '' : String(v);
const num = (v: number | null, unit: string) =>
  v === null ? '' : `${Number.isInteger(v) ? v : v.toFixed(1)}${unit}`;

/** The variables' values for one notification. */
export function variablesOf(req: NotificationRequest, offset: number): Record<string, string> {
  const { alert, rule, context } = req;
  const metric = req.template === 'metric';
  const unit = metric && ['cpu_high', 'memory_high', 'disk_low'].includes(rule.kind) ? '%' : '';
  const exit = text(context.exit_code);
  const updateStatus: Record<string, string> = {
    update_available: 'Available',
    update_completed: 'Succeeded',
    update_failed: 'Failed',
  };
  return {
    SEVERITY: rule.severity.toUpperCase(),
    KIND: kindLabel(rule.kind),
    TITLE: alert.title,
    MESSAGE: text(alert.message),
    HOST_NAME: text(alert.host_name ?? alert.host_id),
    HOST_ID: text(alert.host_id),
    CONTAINER_NAME: text(alert.container_name),
    RULE_NAME: rule.name,
    RULE_ID: rule.id,
    ALERT_ID: alert.id,
    STATE: alert.state,
    TIMESTAMP: formatTime(req.at, offset),
    FIRST_SEEN: formatTime(alert.first_seen, offset),
    LAST_SEEN: formatTime(alert.last_seen, offset),
    OCCURRENCES: String(alert.occurrences),
    CURRENT_VALUE: num(
      typeof context.current_value === 'number' ? context.current_value : alert.current_value,
      unit,
    ),
    THRESHOLD: num(alert.threshold, unit),
    OLD_STATE: text(context.old_state),
    NEW_STATE: text(context.new_state),
    EXIT_CODE: exit === '' ? '' : EXIT_MEANING[exit] ? `${exit} (${EXIT_MEANING[exit]})` : exit,
    RESTART_COUNT: text(context.restart_count),
    HEALTH_STATUS: text(context.health_status ?? context.new_state),
    UPDATE_STATUS: updateStatus[rule.kind] ?? '',
    ERROR_MESSAGE: text(context.error),
  };
}

/**
 * Substitutes `{NAME}`s. Unknown names stay as written and are reported; a line whose
 * variables are all empty (a host alert's Container line) is left out.
 */
export function renderTemplate(template: string, vars: Record<string, string>): TemplatePreview {
  const unknown = new Set<string>();
  const lines: string[] = [];
  for (const line of template.split('\n')) {
    let used = 0;
    let filled = 0;
    const out = line.replace(/\{([A-Z][A-Z0-9_]*)\}/g, (whole, name: string) => {
      if (!KNOWN.has(name)) {
        unknown.add(whole);
        return whole;
      }
      used++;
      const v = vars[name] ?? '';
      if (v !== '') filled++;
      return v;
    });
    if (used > 0 && filled === 0) continue;
    lines.push(out);
  }
  return {
    text: lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    unknown_variables: [...unknown],
  };
}

const blankToNull = (s: string | null | undefined) =>
  s === null || s === undefined || s.trim() === '' ? null : s;

/** Rule's custom template > the kind's template > the global one > the built-in one. */
export function pickTemplate(req: NotificationRequest, settings: WritableSettings): string {
  const kindKey = `alert_template_${req.template}` as const;
  return (
    blankToNull(req.rule.custom_template) ??
    blankToNull(settings[kindKey]) ??
    blankToNull(settings.alert_template) ??
    DEFAULT_TEMPLATES[req.template]
  );
}

/** A sample notification for the editor's preview. */
export function sampleRequest(kind: TemplateKind, at: string): NotificationRequest {
  const template = kind === 'default' ? 'state_change' : kind;
  const ruleKind = {
    metric: 'cpu_high',
    state_change: 'container_stopped',
    health: 'health_check_failed',
    update: 'update_available',
  }[template];
  const severity: AlertSeverity = template === 'update' ? 'info' : 'critical';
  const first = new Date(Date.parse(at) - 5 * 60_000).toISOString();
  const message = {
    metric: 'cpu_percent is 97.3% (threshold >= 90%)',
    state_change: 'Container web-frontend died (exit code 137)',
    health: 'Container web-frontend health check is failing',
    update: 'Update available: nginx:1.27.4',
  }[template];
  return {
    event: 'raised',
    template,
    at,
    alert: {
      id: 'a1b2c3d4-sample',
      title: `Sample rule - web-frontend on docker-prod-01`,
      message,
      kind: ruleKind,
      state: 'open',
      severity,
      scope_type: 'container',
      scope_id: 'host-1:web-frontend',
      host_id: 'host-1',
      host_name: 'docker-prod-01',
      container_name: 'web-frontend',
      rule_id: 'rule-1',
      first_seen: first,
      last_seen: at,
      current_value: template === 'metric' ? 97.3 : null,
      threshold: template === 'metric' ? 90 : null,
      snoozed_until: null,
      resolved_at: null,
      resolved_reason: null,
      occurrences: 1,
      rule_name: 'Sample rule',
    },
    rule: {
      id: 'rule-1',
      name: 'Sample rule',
      kind: ruleKind as NotificationRequest['rule']['kind'],
      severity,
      custom_template: null,
      notify_channels_json: [],
    },
    context:
      template === 'state_change'
        ? { old_state: 'running', new_state: 'exited', exit_code: 137 }
        : template === 'health'
          ? { old_state: 'healthy', new_state: 'unhealthy', error: 'HTTP 503 from /healthz' }
          : {},
  };
}

/** The short recovery notice: what cleared, where, and how long it lasted. */
export function recoveryBody(req: NotificationRequest, offset: number): string {
  const v = variablesOf(req, offset);
  const { alert } = req;
  const lasted =
    alert.resolved_at === null
      ? ''
      : formatDuration(Date.parse(alert.resolved_at) - Date.parse(alert.first_seen));
  return renderTemplate(
    `✅ **Resolved: {KIND}**\n\n**Host:** {HOST_NAME}\n**Container:** {CONTAINER_NAME}\n` +
      `**Lasted:** ${lasted}\n**Reason:** ${text(alert.resolved_reason)}\n**Resolved at:** {TIMESTAMP}\n**Rule:** {RULE_NAME}`,
    v,
  ).text;
}
