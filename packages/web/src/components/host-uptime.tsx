import type { Host } from '@berth/contracts';
import { useSyncExternalStore } from 'react';
import { formatUptime } from '@/lib/format';

// One minute clock for every uptime on screen (refreshed every 60 s).
const MINUTE_MS = 60_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, MINUTE_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const SOURCE_LABEL: Record<NonNullable<Host['uptime_source']>, string> = {
  daemon_process: 'engine process start',
  oldest_container: 'at least, from the oldest running container',
};

type UptimeFields = Pick<Host, 'daemon_started_at' | 'uptime_source' | 'uptime_note'>;

/**
 * A host's uptime (Xd Yh, Xh Ym or Xm), with what it is based on, or why it is unknown, as
 * its tooltip; `detailed` also says the source in words (host details).
 */
export function HostUptime({ host, detailed = false }: { host: UptimeFields; detailed?: boolean }) {
  const at = useSyncExternalStore(subscribe, () => now);
  const text = formatUptime(host.daemon_started_at, at);
  const lowerBound = host.uptime_source === 'oldest_container' && host.daemon_started_at !== null;
  return (
    <span
      title={host.uptime_note ?? undefined}
      data-testid="host-uptime"
      data-source={host.uptime_source ?? 'none'}
      className="tabular-nums"
    >
      {lowerBound && '≥ '}
      {text}
      {detailed && (
        <span className="ml-2 text-xs text-slate-500">
          {host.uptime_source === null
            ? (host.uptime_note ?? '')
            : `(${SOURCE_LABEL[host.uptime_source]})`}
        </span>
      )}
    </span>
  );
}
