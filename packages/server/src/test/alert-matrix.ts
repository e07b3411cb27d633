import type { AlertListResponse, AlertRule } from '@berth/contracts';
import type { apiClient } from './api.js';
import type { HttpReceiver } from './notification-receivers.js';
import { waitFor } from './wait.js';

/** What one trigger did to one alert kind: an alert or none, a recovery message or none. */
export interface Outcome {
  alert: boolean;
  recovery: boolean;
}

/** One cell of the alert matrix: a trigger, the kind it concerns, what should and did happen. */
export interface MatrixRow {
  trigger: string;
  kind: 'container_stopped' | 'host_down';
  expected: Outcome;
  seen?: Outcome;
  /** The alert's message, or why nothing was raised. */
  note?: string;
}

/**
 * The messages a channel received about some subjects (container or host names), told apart
 * by their titles: `ERROR: Host down - web` raised, `Resolved: Host down - web` recovered.
 */
export function messagesAbout(rx: HttpReceiver, subjects: readonly string[]) {
  const titles = rx.requests
    .map((r) => (JSON.parse(r.body) as { title?: string }).title ?? '')
    .filter((title) => subjects.some((s) => title.includes(` - ${s}`)));
  return {
    raised: titles.filter((t) => !t.startsWith('Resolved:')).length,
    recovered: titles.filter((t) => t.startsWith('Resolved:')).length,
  };
}

const cell = (o: Outcome | undefined) =>
  o === undefined
    ? '?'
    : `${o.alert ? 'alert' : 'no alert'}, ${o.recovery ? 'recovery' : 'no recovery'}`;

/** The matrix as a table for the console, one line per trigger and kind. */
export function matrixTable(rows: readonly MatrixRow[]): string {
  const lines = [
    ['Trigger', 'Kind', 'Expected', 'Seen', 'Note'],
    ...rows.map((r) => [r.trigger, r.kind, cell(r.expected), cell(r.seen), r.note ?? '']),
  ];
  const widths = lines[0]?.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length))) ?? [];
  const line = (l: string[]) => `| ${l.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const [head, ...body] = lines;
  return [line(head ?? []), rule, ...body.map(line)].join('\n');
}

/** Whose alerts and messages a matrix row counts: the rule, and a container or a host. */
export interface Subject {
  rule: AlertRule;
  /** What the channel's titles name: the container(s) or the host. */
  titles: string[];
  matches: (a: { container_name: string | null; scope_id: string }) => boolean;
}

/** Polls until `probe` holds or `ms` pass; answers whether it held. */
const within = (ms: number, probe: () => Promise<boolean> | boolean) =>
  waitFor('', async () => (await probe()) || undefined, ms, 100).then(
    () => true,
    () => false,
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Observe = (
  row: Omit<MatrixRow, 'seen' | 'note'>,
  subject: Subject,
  trigger: () => Promise<unknown>,
  recover?: () => Promise<unknown>,
) => Promise<void>;

/**
 * Runs one trigger and watches what follows: an alert (waited for when expected, watched for
 * 8 s when not), then the step that ends the condition and the recovery message; the row
 * goes into `rows` with what was seen (one raised message per alert, one recovery at most).
 */
export function observer(
  api: ReturnType<typeof apiClient>,
  rx: HttpReceiver,
  rows: MatrixRow[],
): Observe {
  const alertsAbout = async ({ rule, matches }: Subject) =>
    (
      await api.get<AlertListResponse>(`/alerts/?rule_id=${rule.id}&page_size=500`)
    ).body.alerts.filter(matches);
  return async (row, subject, trigger, recover = () => Promise.resolve()) => {
    await trigger();
    const raised = async () => (await alertsAbout(subject)).length > 0;
    const alert = row.expected.alert
      ? await within(20_000, raised)
      : (await sleep(8000), await raised());
    if (alert) {
      await recover();
      await within(25_000, () => messagesAbout(rx, subject.titles).recovered > 0);
    }
    await sleep(1000); // a second message would be here by now
    const [first] = await alertsAbout(subject);
    const counted = messagesAbout(rx, subject.titles);
    const resolved = first?.resolved_reason == null ? '' : ` → ${first.resolved_reason}`;
    rows.push({
      ...row,
      seen: { alert: alert && counted.raised === 1, recovery: counted.recovered === 1 },
      note: first === undefined ? '' : `${first.message}${resolved}`,
    });
  };
}
