import type { ContainerSnapshot } from '../monitor/index.js';

/** Docker-style status text ("Up 5 minutes (healthy)", "Exited (1) 2 hours ago"), computed now. */
export function statusText(c: ContainerSnapshot, now = Date.now()): string {
  const since = (iso: string | null) => (iso === null ? '' : humanDuration(now - Date.parse(iso)));
  const health =
    c.health === null ? '' : ` (${c.health === 'starting' ? 'health: starting' : c.health})`;
  switch (c.state) {
    case 'running':
      return `Up ${since(c.startedAt)}${health}`;
    case 'paused':
      return `Up ${since(c.startedAt)} (Paused)`;
    case 'restarting':
      return `Restarting (${c.exitCode ?? 0}) ${since(c.finishedAt)} ago`;
    case 'exited':
    case 'stopped':
      return c.finishedAt === null
        ? `Exited (${c.exitCode ?? 0})`
        : `Exited (${c.exitCode ?? 0}) ${since(c.finishedAt)} ago`;
    case 'created':
      return 'Created';
    case 'removing':
      return 'Removal In Progress';
    case 'dead':
      return 'Dead';
  }
}

/** "Less than a second", "5 seconds", "3 minutes", "2 hours", "4 days" as docker writes them. */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 1) return 'Less than a second';
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.floor(s / 60);
  if (m < 60) return m === 1 ? 'About a minute' : `${m} minutes`;
  const h = Math.floor(m / 60);
  if (h < 48) return h === 1 ? 'About an hour' : `${h} hours`;
  const d = Math.floor(h / 24);
  if (d < 14) return `${d} days`;
  if (d < 60) return `${Math.floor(d / 7)} weeks`;
  return `${Math.floor(d / 30)} months`;
}
