import { containerKeyOf } from '@berth/contracts';
import type { Alert, Container, ContainerAction, HealthCheckConfigs } from '@berth/contracts';
import { createColumnHelper } from '@tanstack/react-table';
import {
  AlertTriangle,
  HeartPulse,
  CircleArrowUp,
  Loader2,
  Play,
  RotateCw,
  ScrollText,
  Square,
  Target,
} from 'lucide-react';
import { selectColumn } from '@/components/data-table';
import { TagChips } from '@/components/host-status';
import { cn } from '@/lib/cn';
import { formatMemory, formatPercent, formatSince } from '@/lib/format';
import { SHOULD_RUN_FLAG, shouldBeRunning, stateLabel } from '@/lib/container-state';
import { ContainerAlertCounts } from './container-alert-counts';

const col = createColumnHelper<Container>();

export interface RowActions {
  act: (container: Container, action: ContainerAction) => void;
  /** Opens the detail dialog on a tab. */
  open: (container: Container, tab: 'info' | 'logs' | 'updates') => void;
  /** Every row action waits while one is pending. */
  busy: boolean;
  /** False for a viewer while the viewer_logs setting is off: no Logs button. */
  canReadLogs?: boolean;
  withUpdates: ReadonlySet<string>;
  /** HTTP health checks by composite key, for the Policy column's health icon. */
  healthChecks?: HealthCheckConfigs | undefined;
  /**
   * Open alerts by scope id, for the Alerts column: one query for the table, where a query
   * per cell set and cleared four timers per row in view on every answer (bench/containers).
   */
  openAlerts: ReadonlyMap<string, Alert[]>;
}

/** The state's dot colour; other states are slate. */
export const DOT: Partial<Record<Container['state'], string>> = {
  running: 'bg-emerald-400',
  paused: 'bg-amber-400',
  restarting: 'bg-sky-400',
  dead: 'bg-red-500',
};

function ActionButton({
  label,
  icon: Icon,
  disabled,
  onClick,
}: {
  label: string;
  icon: typeof Play;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      className="rounded p-1.5 text-slate-400 hover:bg-slate-800 hover:text-white disabled:cursor-not-allowed disabled:opacity-30"
    >
      <Icon className="h-4 w-4" />
    </button>
  );
}

const HEALTH_TONE = {
  healthy: 'text-emerald-400',
  unhealthy: 'text-red-400',
  unknown: 'text-slate-400',
} as const;

/** The health-check indicator: healthy, unhealthy (with failures) or unknown. */
function HealthIcon({ check }: { check: HealthCheckConfigs[string] | undefined }) {
  if (check?.enabled !== true) return null;
  const label =
    check.current_status === 'unhealthy'
      ? `Health check unhealthy (${check.consecutive_failures} consecutive failures)`
      : `Health check ${check.current_status}`;
  return (
    <span className="inline-flex items-center" title={label} data-testid="health-icon">
      <HeartPulse
        className={cn('h-4 w-4', HEALTH_TONE[check.current_status])}
        aria-label={label}
        data-status={check.current_status}
      />
      {check.current_status === 'unhealthy' && (
        <span className="ml-0.5 text-xs text-red-400">{check.consecutive_failures}</span>
      )}
    </span>
  );
}

/** Columns that show stats: sorted by one, the rows' order follows every live message. */
export const STATS_COLUMNS: ReadonlySet<string> = new Set(['cpu', 'ram']);

/**
 * The containers table's columns; ids are what the saved order and visibility refer to. Each says
 * which fields it `reads` (components/data-table-row.tsx), so a live message redraws the stats cells only.
 */
export function containerColumns(actions: RowActions) {
  return [
    selectColumn<Container>('containers'),
    col.accessor((c) => stateLabel(c), {
      id: 'status',
      meta: { reads: ['state', 'desired_state'] },
      size: 140,
      header: 'Status',
      cell: ({ row: { original: c } }) => (
        <span className="inline-flex items-center gap-2" data-testid="state">
          {c.state === 'restarting' ? (
            <Loader2 className="h-3 w-3 animate-spin text-sky-400" aria-hidden />
          ) : (
            <span
              className={cn('h-2 w-2 rounded-full', DOT[c.state] ?? 'bg-slate-500')}
              aria-hidden
            />
          )}
          {stateLabel(c)}
          {shouldBeRunning(c) && (
            <AlertTriangle className="h-3.5 w-3.5 text-amber-400" aria-label={SHOULD_RUN_FLAG} />
          )}
        </span>
      ),
    }),
    col.accessor('name', {
      meta: { reads: ['name', 'image', 'tags'], pinnedStart: true },
      header: 'Name',
      cell: ({ row: { original: c } }) => (
        <div className="min-w-0">
          <button
            type="button"
            onClick={() => actions.open(c, 'info')}
            title={c.name}
            className="block max-w-full truncate text-left font-medium text-white hover:text-sky-300 hover:underline"
          >
            {c.name}
          </button>
          <div className="truncate text-xs text-slate-500">{c.image}</div>
          <TagChips tags={c.tags} max={3} />
        </div>
      ),
    }),
    col.display({
      id: 'policy',
      meta: {
        reads: [
          'host_id',
          'id',
          'auto_restart',
          'auto_update_enabled',
          'floating_tag_mode',
          'desired_state',
        ],
      },
      size: 64,
      header: 'Policy',
      cell: ({ row: { original: c } }) => (
        <span className="flex gap-1.5 text-slate-400">
          {c.auto_restart && (
            <RotateCw className="h-4 w-4 text-emerald-400" aria-label="Auto-restart on" />
          )}
          {c.auto_update_enabled && (
            <CircleArrowUp
              className="h-4 w-4 text-violet-400"
              aria-label={`Auto-update on (${c.floating_tag_mode})`}
            />
          )}
          <HealthIcon check={actions.healthChecks?.[containerKeyOf(c)]} />
          {c.desired_state !== 'unspecified' && (
            <Target
              className={cn(
                'h-4 w-4',
                c.desired_state === 'should_run' ? 'text-sky-400' : 'text-slate-400',
              )}
              aria-label={c.desired_state === 'should_run' ? 'Should run' : 'On demand'}
            />
          )}
        </span>
      ),
    }),
    col.display({
      id: 'alerts',
      meta: { reads: ['host_id', 'name'] },
      size: 88,
      header: 'Alerts',
      cell: ({ row: { original: c } }) => (
        <ContainerAlertCounts container={c} openAlerts={actions.openAlerts} />
      ),
    }),
    col.display({
      id: 'updates',
      meta: { reads: ['host_id', 'id', 'name'] },
      size: 76,
      header: 'Updates',
      cell: ({ row: { original: c } }) =>
        actions.withUpdates.has(containerKeyOf(c)) ? (
          <button
            type="button"
            aria-label={`Updates of ${c.name}`}
            className="rounded bg-sky-500/20 px-1.5 py-0.5 text-xs text-sky-200 hover:bg-sky-500/40"
            onClick={() => actions.open(c, 'updates')}
          >
            Update
          </button>
        ) : (
          <span className="text-slate-600">—</span>
        ),
    }),
    col.accessor((c) => c.host_name || 'localhost', {
      id: 'host',
      meta: { reads: ['host_name'] },
      size: 120,
      header: 'Host',
      cell: (info) => (
        <span className="block truncate" title={info.getValue()}>
          {info.getValue()}
        </span>
      ),
    }),
    col.accessor((c) => c.ports.join(', '), {
      id: 'ports',
      meta: { reads: ['ports'] },
      size: 84,
      header: 'Ports',
      cell: (info) => <span className="text-xs text-slate-400">{info.getValue() || '—'}</span>,
    }),
    col.accessor((c) => (c.state === 'running' ? c.started_at : null), {
      id: 'uptime',
      meta: { reads: ['state', 'started_at'] },
      size: 72,
      header: 'Uptime',
      sortingFn: 'alphanumeric',
      cell: (info) => <span className="whitespace-nowrap">{formatSince(info.getValue())}</span>,
    }),
    col.accessor((c) => c.cpu_percent, {
      id: 'cpu',
      meta: { reads: ['cpu_percent'] },
      size: 64,
      header: 'CPU %',
      cell: (info) => formatPercent(info.getValue()),
    }),
    col.accessor((c) => c.memory_usage, {
      id: 'ram',
      meta: { reads: ['memory_usage'] },
      size: 76,
      header: 'RAM',
      cell: (info) => formatMemory(info.getValue()),
    }),
    col.display({
      id: 'actions',
      meta: { reads: ['name', 'state'], pinnedEnd: true },
      size: 128,
      header: 'Actions',
      cell: ({ row: { original: c } }) => {
        const running = c.state === 'running';
        const startable = c.state === 'exited' || c.state === 'stopped' || c.state === 'created';
        return (
          <div className="flex">
            <ActionButton
              label={`Start ${c.name}`}
              icon={Play}
              disabled={actions.busy || !startable}
              onClick={() => actions.act(c, 'start')}
            />
            <ActionButton
              label={`Stop ${c.name}`}
              icon={Square}
              disabled={actions.busy || !running}
              onClick={() => actions.act(c, 'stop')}
            />
            {actions.canReadLogs !== false && (
              <ActionButton
                label={`Logs of ${c.name}`}
                icon={ScrollText}
                disabled={false}
                onClick={() => actions.open(c, 'logs')}
              />
            )}
            <ActionButton
              label={`Restart ${c.name}`}
              icon={RotateCw}
              disabled={actions.busy || !running}
              onClick={() => actions.act(c, 'restart')}
            />
          </div>
        );
      },
    }),
  ];
}
