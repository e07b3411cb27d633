import type { AlertSeverity } from '@berth/contracts';

/**
 * What is delivered, once rendered: stored in the outbox as it is, so a delivery after a
 * restart needs nothing else. `body` carries light markup (`**bold**`, `` `code` ``) that
 * each channel turns into its own format.
 */
export interface OutgoingMessage {
  kind: 'alert' | 'resolved' | 'summary' | 'test';
  title: string;
  body: string;
  severity: AlertSeverity;
  alert_id: string | null;
  host_name: string | null;
  container_name: string | null;
  rule_name: string | null;
  at: string;
}

/** Severity colours (resolved messages are green whatever the severity). */
export const SEVERITY_COLOR: Record<AlertSeverity | 'resolved', string> = {
  critical: '#dc2626',
  error: '#ea580c',
  warning: '#f59e0b',
  info: '#3b82f6',
  resolved: '#16a34a',
};

export const colorOf = (m: OutgoingMessage): string =>
  m.kind === 'resolved' ? SEVERITY_COLOR.resolved : SEVERITY_COLOR[m.severity];

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Escaped HTML with <b> and <code>; newlines kept (Telegram, Pushover). */
export function toHtml(body: string): string {
  return escapeHtml(body)
    .replace(/\*\*([^*\n]+?)\*\*/g, '<b>$1</b>')
    .replace(/`([^`\n]+?)`/g, '<code>$1</code>');
}

/** Plain text: the markup removed. */
export function toPlain(body: string): string {
  return body.replace(/\*\*([^*\n]+?)\*\*/g, '$1').replace(/`([^`\n]+?)`/g, '$1');
}

/** Slack mrkdwn: &, < and > escaped, bold with single asterisks. */
export function toSlackMrkdwn(body: string): string {
  return body
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\*\*([^*\n]+?)\*\*/g, '*$1*');
}

/** Cuts a text to a service's limit, saying so. */
export function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
