import type { BerthEvent, Container } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { containerEventsQueryOptions } from '@/lib/queries';

const FETCH_LIMIT = 200;
const PAGE_SIZE = 20;
const RANGES = [1, 6, 12, 24, 48, 168, 720, 0] as const;
const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
const TYPES = ['state_change', 'action_taken', 'auto_restart'] as const;
/** Events that count as alerts in the tab's count: everything above info. */
const ALERT_SEVERITIES: ReadonlySet<string> = new Set(['critical', 'error', 'warning']);

const csvCell = (value: string | null) => `"${(value ?? '').replaceAll('"', '""')}"`;

/** Downloads the shown events as CSV with the columns of spec 2 §9, named with today's date. */
function exportCsv(events: BerthEvent[], name: string) {
  const header = [
    'Timestamp',
    'Severity',
    'Category',
    'Type',
    'Title',
    'Message',
    'Container',
    'Old State',
    'New State',
  ];
  const rows = events.map((e) =>
    [
      e.timestamp,
      e.severity,
      e.category,
      e.event_type,
      e.title,
      e.message,
      e.container_name,
      e.old_state,
      e.new_state,
    ]
      .map(csvCell)
      .join(','),
  );
  const blob = new Blob([[header.join(','), ...rows].join('\n')], { type: 'text/csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `${name}-events-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The container's events: time range, severity and type filters, sort, paging, CSV. */
export function EventsTab({ container: c }: { container: Container }) {
  const [hours, setHours] = useState<number>(24);
  const [severity, setSeverity] = useState('');
  const [type, setType] = useState('');
  const [newestFirst, setNewestFirst] = useState(true);
  const [page, setPage] = useState(0);
  const events = useQuery(containerEventsQueryOptions(c.host_id, c.id, FETCH_LIMIT));
  if (events.isError) return <p className="text-sm text-red-300">Failed to load events</p>;
  // The time of the answer is "now": rendering stays pure and the list does not shift.
  const since = hours === 0 ? 0 : events.dataUpdatedAt - hours * 3_600_000;
  const shown = (events.data?.events ?? [])
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
          onClick={() => exportCsv(shown, c.name)}
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
        data-testid="container-events"
      >
        {shown.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE).map((e) => (
          <li key={e.id} className="flex gap-3 px-3 py-2">
            <span className="w-40 shrink-0 text-xs text-slate-500">
              {new Date(e.timestamp).toLocaleString()}
            </span>
            <span className="w-16 shrink-0 text-xs uppercase text-slate-400">{e.severity}</span>
            <span className="min-w-0 flex-1 text-slate-200">{e.title}</span>
            {e.host_id !== null && (
              <Link
                to={`/hosts?hostId=${e.host_id}`}
                className="shrink-0 text-xs text-sky-400 hover:underline"
              >
                {e.host_name ?? 'host'}
              </Link>
            )}
          </li>
        ))}
        {shown.length === 0 && <li className="px-3 py-2 text-slate-500">No events</li>}
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
