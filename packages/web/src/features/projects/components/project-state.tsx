import type { ContainerState, ProjectState } from '@berth/contracts';
import { cn } from '@/lib/cn';

const PROJECT_STYLES: Record<ProjectState, string> = {
  running: 'bg-emerald-500/15 text-emerald-300 border-emerald-500/30',
  partial: 'bg-amber-500/15 text-amber-300 border-amber-500/30',
  stopped: 'bg-slate-500/15 text-slate-300 border-slate-500/30',
};

/** A project's or a service's state as a small badge. */
export function ProjectStateBadge({ state }: { state: ProjectState }) {
  return (
    <span
      data-testid="project-state"
      className={cn('rounded-full border px-2 py-0.5 text-xs font-medium', PROJECT_STYLES[state])}
    >
      {state}
    </span>
  );
}

/** One container's state as a dot and its word. */
export function ContainerStateDot({ state }: { state: ContainerState }) {
  const colour =
    state === 'running'
      ? 'bg-emerald-400'
      : state === 'restarting' || state === 'paused'
        ? 'bg-amber-400'
        : 'bg-slate-500';
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-400">
      <span className={cn('h-2 w-2 rounded-full', colour)} aria-hidden />
      {state}
    </span>
  );
}
