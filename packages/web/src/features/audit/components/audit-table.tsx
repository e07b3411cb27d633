import type { AuditEntry } from '@berth/contracts';
import { cn } from '@/lib/cn';
import { LogRow, LogTable, LogTimeCell, type LogColumn } from '@/components/log-table';

const SOURCE_LABEL: Record<AuditEntry['source'], string | null> = {
  api: null,
  batch: 'batch job',
  schedule: 'scheduled',
  mqtt: 'MQTT',
};

/** What the change was about: container on host, the host, or any other target. */
function targetText(e: AuditEntry): string {
  const host = e.host_name ?? e.host_id;
  const container = e.container_name ?? e.container_id;
  const parts = [
    container !== null && host !== null ? `${container} on ${host}` : (container ?? host),
    e.target,
  ].filter((p): p is string => p !== null && p !== '');
  return parts.join(' · ');
}

const AUDIT_COLUMNS: LogColumn[] = [
  { label: 'TIME', className: 'w-36' },
  { label: 'USER', className: 'w-44' },
  { label: 'ACTION', className: 'w-52' },
  { label: 'TARGET' },
  { label: 'ADDRESS', className: 'w-36' },
  { label: 'RESULT', className: 'w-56' },
];

/** TIME, USER, ACTION, TARGET, ADDRESS, RESULT; one line per row. */
export function AuditTable({
  entries,
  empty,
}: {
  entries: readonly AuditEntry[];
  empty: React.ReactNode;
}) {
  return (
    <LogTable columns={AUDIT_COLUMNS} testId="audit-log">
      {entries.map((e) => {
        const via = SOURCE_LABEL[e.source];
        const target = targetText(e);
        return (
          <LogRow key={e.id} testId="audit-row">
            <LogTimeCell iso={e.timestamp} />
            <td className="truncate px-3" title={e.user_agent ?? undefined}>
              <span className="text-slate-100">{e.actor ?? '—'}</span>
              {e.api_key !== null && (
                <span className="text-xs text-slate-500"> · key “{e.api_key}”</span>
              )}
              {via !== null && <span className="text-xs text-slate-500"> · {via}</span>}
            </td>
            <td className="truncate px-3 font-mono text-xs text-slate-200">{e.action}</td>
            <td className="truncate px-3 text-xs text-slate-300" title={target}>
              {target === '' ? '—' : target}
            </td>
            <td className="truncate px-3 text-xs text-slate-400 tabular-nums">
              {e.address ?? '—'}
            </td>
            <td
              className="truncate px-3 text-xs"
              title={e.error ?? (e.status === null ? 'ok' : `HTTP ${e.status}`)}
            >
              <span className={cn('font-medium', e.ok ? 'text-emerald-400' : 'text-red-300')}>
                {e.ok ? 'ok' : 'error'}
              </span>
              {e.status !== null && <span className="text-slate-500"> {e.status}</span>}
              {e.error !== null && <span className="text-slate-400"> · {e.error}</span>}
            </td>
          </LogRow>
        );
      })}
      {entries.length === 0 && (
        <tr>
          <td colSpan={6} className="px-4 py-12 text-center text-sm text-slate-400">
            {empty}
          </td>
        </tr>
      )}
    </LogTable>
  );
}
