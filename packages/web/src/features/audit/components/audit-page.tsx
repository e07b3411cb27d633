import { useQuery } from '@tanstack/react-query';
import { Download, RotateCcw } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Tabs, TabsList } from '@/components/ui/tabs';
import { auditExportUrl, auditLogQueryOptions } from '../api/audit-api';
import {
  AUDIT_TIME_RANGES,
  auditQuery,
  NO_AUDIT_FILTERS,
  readAuditFilters,
  writeAuditFilters,
  type AuditFilters,
} from '../lib/audit-filters';
import { AuditTable } from './audit-table';
import { ShellRecordings } from './shell-recordings';

const PAGE_SIZE = 50;

/** A text filter applied on Enter (or when it loses focus); Reset remounts it empty. */
function TextFilter({
  label,
  value,
  placeholder,
  onApply,
  width = 'w-48',
}: {
  label: string;
  value: string;
  placeholder: string;
  onApply: (value: string) => void;
  width?: string;
}) {
  const apply = (next: string) => {
    if (next.trim() !== value) onApply(next.trim());
  };
  return (
    <Input
      key={value}
      aria-label={label}
      placeholder={placeholder}
      size="md"
      fullWidth={false}
      className={width}
      defaultValue={value}
      onKeyDown={(e) => {
        if (e.key === 'Enter') apply(e.currentTarget.value);
      }}
      onBlur={(e) => apply(e.currentTarget.value)}
    />
  );
}

const VIEWS = [
  { value: 'log', label: 'Log' },
  { value: 'recordings', label: 'Shell recordings' },
];

/** The Audit Log, and beside it what was typed in container shells while recording was on. */
export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'recordings' ? 'recordings' : 'log';
  const tabs = (
    <Tabs
      value={view}
      onValueChange={(next) =>
        setParams((prev) => {
          const out = new URLSearchParams(next === 'log' ? '' : prev);
          if (next === 'log') out.delete('view');
          else out.set('view', next);
          return out;
        })
      }
    >
      <TabsList tabs={VIEWS} />
    </Tabs>
  );
  if (view === 'recordings')
    return (
      <>
        <PageHeader
          title="Audit Log"
          subtitle="What was typed in container shells while recording was on"
        />
        {tabs}
        <ShellRecordings />
      </>
    );
  return <AuditLog tabs={tabs} />;
}

/** Who changed what, when, from where, and how it ended. */
function AuditLog({ tabs }: { tabs: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readAuditFilters(params), [params]);
  const [page, setPage] = useState(0);
  // The time range counts back from when the filters were set, so pages stay put.
  const [now, setNow] = useState(() => Date.now());
  const query = useMemo(() => auditQuery(filters, now), [filters, now]);
  const answer = useQuery(
    auditLogQueryOptions({ ...query, limit: PAGE_SIZE, offset: page * PAGE_SIZE }),
  );
  const setFilters = (next: AuditFilters) => {
    setPage(0);
    setNow(Date.now());
    setParams((prev) => writeAuditFilters(prev, next));
  };

  const total = answer.data?.total_count ?? 0;
  const lastPage = Math.max(0, Math.ceil(total / PAGE_SIZE) - 1);
  const entries = answer.data?.entries ?? [];
  const empty = answer.isError
    ? 'Failed to load the audit log'
    : answer.isPending
      ? 'Loading the audit log…'
      : 'No audit entries found';
  const first = page * PAGE_SIZE + 1;

  return (
    <>
      <PageHeader
        title="Audit Log"
        subtitle="Every change and sign-in: who, what, when, from where, and how it ended"
        actions={
          <div className="flex items-center gap-2">
            <a
              href={auditExportUrl(query)}
              download
              aria-disabled={total === 0}
              className="inline-flex h-8 items-center gap-2 rounded-md bg-slate-800 px-3 text-sm font-medium text-slate-100 hover:bg-slate-700"
            >
              <Download className="h-4 w-4" aria-hidden />
              Export CSV
            </a>
            <Button variant="ghost" size="sm" onClick={() => setFilters(NO_AUDIT_FILTERS)}>
              <RotateCcw className="h-4 w-4" aria-hidden />
              Reset
            </Button>
          </div>
        }
      />
      {tabs}
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <TextFilter
          label="User"
          placeholder="User or API key"
          value={filters.user}
          onApply={(user) => setFilters({ ...filters, user })}
        />
        <TextFilter
          label="Action"
          placeholder="Action, e.g. container.restart"
          width="w-60"
          value={filters.action}
          onApply={(action) => setFilters({ ...filters, action })}
        />
        <TextFilter
          label="Target"
          placeholder="Host or container"
          value={filters.target}
          onApply={(target) => setFilters({ ...filters, target })}
        />
        <Select
          aria-label="Result"
          value={filters.result}
          onChange={(e) =>
            setFilters({ ...filters, result: e.target.value as AuditFilters['result'] })
          }
        >
          <option value="">Any result</option>
          <option value="ok">Succeeded</option>
          <option value="error">Failed</option>
        </Select>
        <Select
          aria-label="Time range"
          value={filters.hours}
          onChange={(e) => setFilters({ ...filters, hours: Number(e.target.value) })}
        >
          {AUDIT_TIME_RANGES.map((r) => (
            <option key={r.hours} value={r.hours}>
              {r.label}
            </option>
          ))}
        </Select>
      </div>
      <AuditTable entries={answer.isError ? [] : entries} empty={empty} />
      {total > 0 && !answer.isError && (
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-400">
          <span data-testid="audit-log-showing">
            Showing {first}–{first + entries.length - 1} of {total}
          </span>
          <div className="flex items-center gap-2">
            <Button
              size="sm"
              variant="ghost"
              disabled={page === 0}
              onClick={() => setPage(page - 1)}
            >
              Previous
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={page >= lastPage}
              onClick={() => setPage(page + 1)}
            >
              Next
            </Button>
          </div>
        </div>
      )}
    </>
  );
}
