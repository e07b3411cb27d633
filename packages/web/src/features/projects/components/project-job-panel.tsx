import type { ProjectJobStep } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { projectJobQueryOptions, useRefreshProjects } from '../api/projects-api';

const STEP_STYLES: Record<ProjectJobStep['status'], string> = {
  queued: 'text-slate-500',
  running: 'text-sky-300',
  completed: 'text-emerald-300',
  skipped: 'text-slate-400',
  failed: 'text-red-300',
};

const ACTION_WORDS = {
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
  'pull-recreate': 'Pull and recreate',
} as const;

/** A project action's progress: the order chosen, then each container's step as it runs. */
export function ProjectJobPanel({ jobId, onClose }: { jobId: string; onClose: () => void }) {
  const { data: job, error } = useQuery(projectJobQueryOptions(jobId));
  const refresh = useRefreshProjects();
  const done = job !== undefined && job.status !== 'running';
  useEffect(() => {
    if (done) void refresh();
  }, [done, refresh]);
  if (error !== null) return <p className="text-sm text-red-300">{errorText(error)}</p>;
  if (job === undefined) return <p className="text-sm text-slate-400">Starting…</p>;
  const finished = job.steps.filter((s) => s.status !== 'queued' && s.status !== 'running').length;
  return (
    <section
      data-testid="project-job"
      data-status={job.status}
      aria-label={`${ACTION_WORDS[job.action]} progress`}
      className="rounded-lg border border-slate-800 bg-slate-950/60 p-3"
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium text-slate-200">
          {ACTION_WORDS[job.action]}:{' '}
          {job.status === 'running' ? `${finished} of ${job.steps.length}` : job.status}
        </p>
        {done && (
          <Button size="xs" variant="ghost" onClick={onClose}>
            Dismiss
          </Button>
        )}
      </div>
      <p className="mb-2 text-xs text-slate-500">{job.order}</p>
      <ol className="space-y-1">
        {job.steps.map((s, i) => (
          <li
            key={`${s.operation}-${s.container_id}-${i}`}
            data-testid="project-job-step"
            data-status={s.status}
            className="flex flex-wrap items-baseline gap-x-2 text-xs"
          >
            <span className="font-mono text-slate-300">
              {s.operation} {s.service}
            </span>
            <span className="text-slate-500">{s.container_name}</span>
            <span className={cn('font-medium', STEP_STYLES[s.status])}>{s.status}</span>
            {s.message !== null && <span className="text-slate-400">{s.message}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
