import type { BerthEvent } from '@berth/contracts';
import { ArrowRight, Box, Server } from 'lucide-react';
import { SEVERITY_TONE } from '@/components/event-list';
import { cn } from '@/lib/cn';
import { formatStamp } from '@/lib/format';
import { LogRow, LogTable, LogTimeCell, type LogColumn } from '@/components/log-table';

const SEVERITY_DOT: Record<string, string> = {
  critical: 'bg-red-500',
  error: 'bg-orange-500',
  warning: 'bg-amber-400',
  info: 'bg-sky-400',
  debug: 'bg-slate-500',
};

export interface EventLinks {
  /** Opens the host's panel; undefined when the host is gone (its events stay). */
  host: (e: BerthEvent) => (() => void) | undefined;
  /** Opens the container's panel; undefined when the container is gone. */
  container: (e: BerthEvent) => (() => void) | undefined;
}

function Target({
  icon: Icon,
  label,
  kind,
  open,
}: {
  icon: typeof Box;
  label: string;
  kind: 'host' | 'container';
  open: (() => void) | undefined;
}) {
  const body = (
    <>
      <Icon className="h-3.5 w-3.5 shrink-0" aria-hidden />
      <span className="truncate">{label}</span>
    </>
  );
  const className = 'inline-flex max-w-32 min-w-0 items-center gap-1 text-xs xl:max-w-56';
  if (open === undefined)
    return (
      <span className={cn(className, 'text-slate-500')} title={`${label} (no longer present)`}>
        {body}
      </span>
    );
  return (
    <button
      type="button"
      onClick={open}
      aria-label={`Open ${kind} ${label}`}
      className={cn(className, 'text-sky-400 hover:text-sky-300 hover:underline')}
    >
      {body}
    </button>
  );
}

/** An event's container and host, each a link to its panel while it still exists. */
function Targets({ event: e, links }: { event: BerthEvent; links: EventLinks }) {
  return (
    <>
      {e.container_id !== null && (
        <Target
          icon={Box}
          kind="container"
          label={e.container_name ?? e.container_id}
          open={links.container(e)}
        />
      )}
      {e.host_id !== null && (
        <Target icon={Server} kind="host" label={e.host_name ?? e.host_id} open={links.host(e)} />
      )}
    </>
  );
}

const EVENT_COLUMNS: LogColumn[] = [
  { label: 'TIME', className: 'w-36' },
  { label: 'SEVERITY', className: 'w-28' },
  { label: 'EVENT DETAILS' },
];

/** The TIME, SEVERITY, EVENT DETAILS table; one 35 px line per event. */
export function EventsTable({
  events,
  empty,
  links,
}: {
  events: readonly BerthEvent[];
  /** What the body says instead of rows: loading, the error, or 'No events found'. */
  empty: React.ReactNode;
  links: EventLinks;
}) {
  return (
    <LogTable columns={EVENT_COLUMNS} testId="event-log">
      {events.map((e) => (
        <LogRow key={e.id} testId="event-row">
          <LogTimeCell iso={e.timestamp} />
          <td className="px-3">
            <span
              className={cn(
                'flex items-center gap-1.5 text-xs font-medium uppercase',
                SEVERITY_TONE[e.severity],
              )}
            >
              <span
                className={cn('h-1.5 w-1.5 rounded-full', SEVERITY_DOT[e.severity])}
                aria-hidden
              />
              {e.severity}
            </span>
          </td>
          <td className="px-3">
            <div className="flex min-w-0 items-center gap-3">
              <span
                className="hidden w-20 shrink-0 rounded bg-slate-800 px-1.5 py-0.5 text-center text-[11px] text-slate-400 xl:inline"
                title={`Category ${e.category}, type ${e.event_type}`}
              >
                {e.category}
              </span>
              <span className="min-w-0 flex-1 truncate" title={e.message ?? e.title}>
                <span className="text-slate-100">{e.title}</span>
                {e.message !== null && e.message !== '' && (
                  <span className="text-slate-500"> · {e.message}</span>
                )}
              </span>
              {e.old_state !== null && e.new_state !== null && e.old_state !== e.new_state && (
                <span className="hidden shrink-0 items-center gap-1 text-xs text-slate-400 xl:inline-flex">
                  {e.old_state}
                  <ArrowRight className="h-3 w-3" aria-label="to" />
                  {e.new_state}
                </span>
              )}
              <span className="flex min-w-0 shrink-0 items-center justify-end gap-3">
                <Targets event={e} links={links} />
              </span>
            </div>
          </td>
        </LogRow>
      ))}
      {events.length === 0 && (
        <tr>
          <td colSpan={3} className="px-4 py-12 text-center text-sm text-slate-400">
            {empty}
          </td>
        </tr>
      )}
    </LogTable>
  );
}

/** The Event Log on a phone: one card per event, its host and container as 44 px links. */
export function EventCards({
  events,
  empty,
  links,
}: {
  events: readonly BerthEvent[];
  empty: React.ReactNode;
  links: EventLinks;
}) {
  if (events.length === 0)
    return (
      <div
        data-testid="event-log"
        className="rounded-xl border border-slate-800 px-4 py-12 text-center text-sm text-slate-400"
      >
        {empty}
      </div>
    );
  return (
    <ul className="space-y-2" data-testid="event-log">
      {events.map((e) => (
        <li
          key={e.id}
          data-testid="event-row"
          className="rounded-xl border border-slate-800 bg-slate-900/40 px-3 py-2"
        >
          <div className="flex items-center justify-between gap-2 text-xs">
            <span
              className={cn(
                'flex items-center gap-1.5 font-medium uppercase',
                SEVERITY_TONE[e.severity],
              )}
            >
              <span
                className={cn('h-1.5 w-1.5 rounded-full', SEVERITY_DOT[e.severity])}
                aria-hidden
              />
              {e.severity}
              <span className="font-normal text-slate-500 normal-case">{e.category}</span>
            </span>
            <span className="text-slate-400 tabular-nums">{formatStamp(e.timestamp)}</span>
          </div>
          <p className="mt-1 text-sm break-words text-slate-100">{e.title}</p>
          {e.message !== null && e.message !== '' && (
            <p className="mt-0.5 line-clamp-3 text-xs break-words text-slate-400">{e.message}</p>
          )}
          {(e.container_id !== null || e.host_id !== null) && (
            <div className="mt-1 flex flex-wrap items-center gap-x-4 [&>*]:min-h-11">
              <Targets event={e} links={links} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
