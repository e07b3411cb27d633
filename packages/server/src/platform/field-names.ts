/**
 * Fields named as a person reads them: error answers say "Cooldown must be at least 0",
 * never "cooldown_seconds: ...". Most keys read well once their words are split (and a unit
 * suffix dropped); these are the ones the forms call something else.
 */
const LABELS: Readonly<Record<string, string>> = {
  host_selector_json: 'Hosts',
  container_selector_json: 'Containers',
  notify_channels_json: 'Notification channels',
  auto_resolve: 'Auto-resolve',
  auth_config_json: 'Authentication',
  duration_minutes: 'Snooze duration',
  ids: 'Selection',
  tls_ca: 'CA certificate',
  tls_cert: 'Client certificate',
  tls_key: 'Client key',
  tail: 'Lines',
  q: 'Search',
  // Settings → System's names for them.
  history_10s_retention_hours: '10-second history',
  history_1m_retention_hours: '1-minute history',
  history_15m_retention_hours: '15-minute history',
  exec_idle_minutes: 'Shell idle timeout',
  exec_recording_days: 'Keep recordings',
};

const ACRONYMS = new Set(['id', 'url', 'ui', 'tls', 'ca', 'cpu', 'ssl', 'smtp', 'http', 'api']);
/** A unit at the end of a key is the form's business ("Duration (seconds)"), not the name's. */
const UNITS = new Set(['seconds', 'minutes', 'days', 'ms', 'json']);

/** `cooldown_seconds` → "Cooldown", `web_ui_url` → "Web UI URL", `showKpiBar` → "Show kpi bar". */
export function fieldLabel(key: string): string {
  const known = LABELS[key];
  if (known !== undefined) return known;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split('_')
    .filter((w) => w !== '');
  while (words.length > 1 && UNITS.has(words.at(-1) ?? '')) words.pop();
  const text = words.map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w)).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Words that end the subject of a message ("Cooldown | must be ..."). */
const VERBS = new Set(
  'must is are was were can cannot has have should does do did will may contains needs already'.split(
    ' ',
  ),
);
const singular = (w: string) => w.toLowerCase().replace(/s$/, '');

/**
 * Whether a message reads well on its own: a sentence with a subject and a verb ("Cooldown
 * must be at least 0", "Address/Endpoint is required"), or a phrase that holds the field's
 * whole name ("Unknown host: h1", "Unknown rule kind").
 */
function readsAlone(message: string, label: string): boolean {
  const name = label.toLowerCase().split(' ').map(singular).join(' ');
  const subject: string[] = [];
  for (const raw of message.split(/\s+/)) {
    // A pause (`Unknown host: h1`) ends the subject after its word.
    const [, word = '', pause] = /^([^:.,;(]*)(.?)/.exec(raw) ?? [];
    if (VERBS.has(word.toLowerCase())) return subject.length > 0;
    subject.push(singular(word));
    if (pause !== '') break;
  }
  return ` ${subject.join(' ')} `.includes(` ${name} `);
}

/** Objects that only carry fields (a batch's `params`, a channel's `config`): no name of their own. */
const WRAPPERS = new Set(['params', 'config']);

/** "must be a number", "Must be between 1 and 600": what is said of a field left unnamed. */
const isPredicate = (message: string) => /^([a-z]|(Must|Is|Are|Should) )/.test(message);

/**
 * The message of a problem with a field, the field named in words. `path` is where the
 * problem is (`['host_selector_json', 'include', '0']`): its last name is the field, and a
 * field inside another is introduced by the outer one ("Hosts: Include must be a list").
 * A message that reads well alone stays as written; "Required" and bare predicates ("must
 * be a number") get the label in front, any other message the label and a colon.
 */
export function fieldMessage(path: readonly (string | number)[], message: string): string {
  const names = path.map(String).filter((s) => s !== '' && !/^\d+$/.test(s));
  const key = names.at(-1);
  if (key === undefined) return message;
  const label = fieldLabel(key);
  const text =
    message === 'Required'
      ? `${label} is required`
      : readsAlone(message, label)
        ? message.charAt(0).toUpperCase() + message.slice(1)
        : isPredicate(message)
          ? `${label} ${message.charAt(0).toLowerCase()}${message.slice(1)}`
          : `${label}: ${message}`;
  const outer = names.length > 1 ? names[0] : undefined;
  return outer === undefined || WRAPPERS.has(outer) ? text : `${fieldLabel(outer)}: ${text}`;
}

/**
 * Services state a problem with one field as `"<field>: <Message>"`; the answer names that
 * field in words. Messages of any other form pass unchanged.
 */
export function fieldDetail(detail: string): string {
  const match = /^([a-z][a-z0-9_]*): ((?:[A-Z]|(?:must|is|are|should) )[\s\S]*)$/.exec(detail);
  if (match === null) return detail;
  return fieldMessage([match[1] ?? ''], match[2] ?? '');
}
