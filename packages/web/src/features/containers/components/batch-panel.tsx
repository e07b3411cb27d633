import type { BatchItem } from '@berth/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { containersQueryOptions, updatesSummaryQueryOptions } from '@/lib/queries';
import { batchJobQueryOptions, useBatchLiveUpdates } from '../api/batch-api';

/** The panel closes by itself 3 s after the job ends. */
const AUTO_CLOSE_MS = 3000;

const ITEM_TONE: Record<BatchItem['status'], string> = {
  queued: 'text-slate-400',
  running: 'text-sky-300',
  completed: 'text-emerald-300',
  failed: 'text-red-300',
  skipped: 'text-amber-200',
};

/** A completed_at that is not a date reads 'Invalid timestamp'. */
const finishedAt = (iso: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? 'Invalid timestamp' : at.toLocaleTimeString();
};

/** Progress of one batch job: status, counters and live items. */
export function BatchPanel({ jobId, onClose }: { jobId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const job = useQuery(batchJobQueryOptions(jobId));
  useBatchLiveUpdates(jobId);
  const done = job.data?.status === 'completed' || job.data?.status === 'failed';

  useEffect(() => {
    if (!done) return undefined;
    void queryClient.invalidateQueries({ queryKey: containersQueryOptions().queryKey });
    // A poll answered just before an item's last live update can have overwritten it: the
    // stored job is the final word once the job is done.
    void queryClient.invalidateQueries({ queryKey: batchJobQueryOptions(jobId).queryKey });
    // An update check also refreshes the update status it changed.
    if (job.data?.action === 'check-updates' || job.data?.action === 'update')
      void queryClient.invalidateQueries({ queryKey: updatesSummaryQueryOptions().queryKey });
    const timer = setTimeout(onClose, AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [done, onClose, queryClient, job.data?.action, jobId]);

  return (
    <aside
      aria-label="Batch job"
      className="fixed right-4 bottom-24 z-30 flex max-h-[60vh] w-96 flex-col rounded-xl border border-slate-700 bg-slate-900 shadow-2xl"
    >
      <header className="flex items-center justify-between border-b border-slate-800 px-4 py-3">
        <h2 className="text-sm font-semibold text-white">
          Batch job{job.data && `: ${job.data.action}`}
        </h2>
        <button
          type="button"
          aria-label="Close batch panel"
          onClick={onClose}
          className="text-slate-400 hover:text-white"
        >
          <X className="h-4 w-4" />
        </button>
      </header>
      {job.isError ? (
        <div className="space-y-2 p-4 text-sm">
          <p className="text-red-300">Failed to load batch job</p>
          <p className="text-slate-400">{job.error.message || 'Failed to fetch job status'}</p>
          <Button size="sm" variant="secondary" onClick={() => void job.refetch()}>
            Retry
          </Button>
        </div>
      ) : job.data === undefined ? (
        <p className="p-4 text-sm text-slate-400">Loading…</p>
      ) : (
        <>
          <dl
            className="grid grid-cols-5 gap-1 px-4 py-3 text-center text-xs"
            data-testid="batch-counters"
          >
            {(
              [
                ['Total', job.data.total_items],
                ['Done', job.data.completed_items],
                ['Success', job.data.success_items],
                ['Error', job.data.error_items],
                ['Skipped', job.data.skipped_items],
              ] as const
            ).map(([label, n]) => (
              <div key={label}>
                <dt className="text-slate-500">{label}</dt>
                <dd
                  className="text-base font-semibold text-white tabular-nums"
                  data-testid={`batch-${label}`}
                >
                  {n}
                </dd>
              </div>
            ))}
          </dl>
          <p className="px-4 pb-2 text-xs text-slate-400" data-testid="batch-status">
            Status: {job.data.status}
            {job.data.completed_at !== null && ` · finished ${finishedAt(job.data.completed_at)}`}
          </p>
          <ul className="min-h-0 flex-1 overflow-y-auto border-t border-slate-800 px-4 py-2 text-sm">
            {job.data.items.map((item) => (
              <li key={item.id} className="flex items-baseline justify-between gap-2 py-1">
                <span className="truncate text-slate-200">
                  {item.container_name ?? item.container_id}
                </span>
                <span className={cn('shrink-0 text-xs', ITEM_TONE[item.status])}>
                  {item.status}
                  {item.message !== null && ` · ${item.message}`}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}
