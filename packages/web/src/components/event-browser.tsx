import type { BerthEvent } from '@berth/contracts';
import { useState, type ReactNode } from 'react';
import { ByUser, SEVERITY_TONE } from '@/components/event-list';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { downloadEventsCsv } from '@/lib/events-csv';

const PAGE_SIZE = 20;
const RANGES = [1, 6, 12, 24, 48, 168, 720, 0] as const;
const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
const TYPES = ['state_change', 'action_taken', 'auto_restart'] as const;
/** Events that count as alerts in the count: everything above info. */
const ALERT_SEVERITIES: ReadonlySet<string> = new Set(['critical', 'error', 'warning']);

/**
 * A fetched batch of events (a container's or a host's 200 latest) with
 * time range, severity and type filters, sort, 20 a page and CSV export. `hostColumn` adds
 * the Host column to the CSV, as host views do; `links` draws each row's links.
 */
export function EventBrowser({
  events: all,
  isError,
  fetchedAt,
  csvPrefix,
  hostColumn,
  testId,
  links,
}: {
  events: BerthEvent[] | undefined;
  isError: boolean;
  /** When the batch was fetched: "now" for the time range, so the list does not shift. */
  fetchedAt: number;
  csvPrefix: string;
  hostColumn: boolean;
  testId: string;
  links: (event: BerthEvent) => ReactNode;
}) {
  const [hours, setHours] = useState<number>(24);
  const [severity, setSeverity] = useState('');
  const [type, setType] = useState('');
  const [newestFirst, setNewestFirst] = useState(true);
  const [page, setPage] = useState(0);
  if (isError) return <p className="text-sm text-red-300">Failed to load events</p>;
  const since = hours === 0 ? 0 : fetchedAt - hours * 3_600_000;
  const shown = (all ?? [])
    .filter((e) => Date.parse(e.timestamp) >= since)
    .filter((e) => severity === '' || e.severity === severity)
    .filter((e) => type === '' || e.event_type === type)
    .sort((a, b) =>
      newestFirst ? b.timestamp.localeCompare(a.timestamp) : a.timestamp.localeCompare(b.timestamp),
    );
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <Select
          aria-label="Time range"
          value={hours}
          onChange={(e) => setHours(Number(e.target.value))}
        >
          {RANGES.map((h) => (
            <option key={h} value={h}>
              {h === 0 ? 'All' : h < 48 ? `${h} h` : `${h / 24} days`}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Severity"
          value={severity}
          onChange={(e) => setSeverity(e.target.value)}
        >
          <option value="">All severities</option>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <Select aria-label="Event type" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">All types</option>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
        <Button size="sm" variant="ghost" onClick={() => setNewestFirst(!newestFirst)}>
          {newestFirst ? 'Newest first' : 'Oldest first'}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={shown.length === 0}
          onClick={() => downloadEventsCsv(shown, `${csvPrefix}-events`, { host: hostColumn })}
        >
          Export CSV
        </Button>
        <span className="ml-auto text-xs text-slate-400" data-testid="events-count">
          {shown.length} events · {shown.filter((e) => ALERT_SEVERITIES.has(e.severity)).length}{' '}
          alerts
        </span>
      </div>
      <ul
        className="divide-y divide-slate-800 rounded-lg border border-slate-800 text-sm"
        data-testid={testId}
      >
        {shown.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE).map((e) => (
          <li key={e.id} className="flex items-center gap-3 px-3 py-2">
            <span className="w-40 shrink-0 text-xs text-slate-500">
              {new Date(e.timestamp).toLocaleString()}
            </span>
            <span
              className={`w-16 shrink-0 text-xs uppercase ${SEVERITY_TONE[e.severity] ?? 'text-slate-400'}`}
            >
              {e.severity}
            </span>
            <span className="min-w-0 flex-1 text-slate-200">{e.title}</span>
            <ByUser event={e} />
            {links(e)}
          </li>
        ))}
        {shown.length === 0 && (
          <li className="px-3 py-2 text-slate-500">
            {all === undefined ? 'Loading events…' : 'No events'}
          </li>
        )}
      </ul>
      <div className="mt-2 flex items-center justify-end gap-2 text-sm">
        <Button
          size="sm"
          variant="ghost"
          disabled={current === 0}
          onClick={() => setPage(current - 1)}
        >
          Prev
        </Button>
        <span className="text-slate-400">
          {current + 1} / {pages}
        </span>
        <Button
          size="sm"
          variant="ghost"
          disabled={current >= pages - 1}
          onClick={() => setPage(current + 1)}
        >
          Next
        </Button>
      </div>
    </div>
  );
}
