/** Uptime as the dashboard writes it: Xd Yh, Xh Ym or Xm. */
export function formatUptime(since: string | null, now = Date.now()): string {
  if (since === null) return '—';
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return `${m}m`;
}

/** A percentage with one decimal, or a dash when unknown. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(1)}%`;
}

/** Bytes in B, KB, MB, GB (base 1024). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit] ?? 'B'}`;
}

const RATE_UNITS = ['B/s', 'KB/s', 'MB/s', 'GB/s'] as const;

/** A network rate in B/s, KB/s or MB/s; GB/s only where `allowGb` (the expanded card). */
export function formatRate(bytesPerSec: number | null | undefined, allowGb = false): string {
  if (bytesPerSec === null || bytesPerSec === undefined) return '—';
  const top = allowGb ? 3 : 2;
  let value = bytesPerSec;
  let unit = 0;
  while (value >= 1024 && unit < top) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${RATE_UNITS[unit] ?? 'B/s'}`;
}

/** Built on first use: this module loads with the first screen, which never needs it. */
let stamp: Intl.DateTimeFormat | undefined;

/** "Dec 4, 16:12:37": a log line's time, as the Event and Audit Logs show it. */
export function formatStamp(iso: string): string {
  stamp ??= new Intl.DateTimeFormat(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
  return stamp.format(new Date(iso));
}

/** A timestamp as a short local time of day, e.g. 14:05:09. */
export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour12: false });
}

/** "3m ago", "2h ago", "4d ago". */
export function formatAgo(iso: string | null, now = Date.now()): string {
  if (iso === null) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** Container memory: MB under 1024 MB, otherwise GB with one decimal. */
export function formatMemory(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const mb = bytes / 1024 ** 2;
  if (mb < 10) return `${mb.toFixed(1)} MB`;
  return mb < 1024 ? `${mb.toFixed(0)} MB` : `${(mb / 1024).toFixed(1)} GB`;
}

/** Container uptime: Nd Nh, Nh Nm, Nm or Ns; a dash for future or invalid times. */
export function formatSince(iso: string | null, now = Date.now()): string {
  const at = iso === null ? NaN : Date.parse(iso);
  if (Number.isNaN(at) || at > now) return '—';
  const s = Math.floor((now - at) / 1000);
  if (s < 60) return `${s}s`;
  return formatUptime(iso, now);
}
