import type { Project, ProjectAction } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { FileText, Play, RefreshCw, RotateCw, Square } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { projectJobQueryOptions } from '../api/projects-api';
import { ContainerStateDot, ProjectStateBadge } from './project-state';
import { ProjectJobPanel } from './project-job-panel';

const ACTIONS: { action: ProjectAction; label: string; icon: typeof Play }[] = [
  { action: 'start', label: 'Start', icon: Play },
  { action: 'stop', label: 'Stop', icon: Square },
  { action: 'restart', label: 'Restart', icon: RotateCw },
  { action: 'pull-recreate', label: 'Pull & recreate', icon: RefreshCw },
];

/** One project: its state, its services with their containers, its actions and progress. */
export function ProjectCard({
  project,
  showHost,
  canOperate,
  jobId,
  onAction,
  onShowFile,
  onCloseJob,
}: {
  project: Project;
  showHost: boolean;
  canOperate: boolean;
  jobId: string | null;
  onAction: (action: ProjectAction) => void;
  onShowFile: () => void;
  onCloseJob: () => void;
}) {
  // The panel's own query: one request a second serves both.
  const { data: job } = useQuery({
    ...projectJobQueryOptions(jobId ?? ''),
    enabled: jobId !== null,
  });
  const running = jobId !== null && job?.status !== 'completed' && job?.status !== 'failed';
  return (
    <article
      data-testid="project-card"
      data-project={project.name}
      aria-label={`Project ${project.name}`}
      className="min-w-0 rounded-xl border border-slate-800 bg-slate-900/60 p-4"
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-base font-semibold break-all text-white">{project.name}</h2>
            <ProjectStateBadge state={project.state} />
            {showHost && (
              <span className="rounded bg-slate-800 px-1.5 py-0.5 text-xs text-slate-300">
                {project.host_name}
              </span>
            )}
          </div>
          <p className="mt-1 text-xs text-slate-400">
            {project.running_count} of {project.container_count} containers running
            {project.working_dir !== null && (
              <span className="font-mono break-all text-slate-500"> · {project.working_dir}</span>
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          {canOperate &&
            ACTIONS.map(({ action, label, icon: Icon }) => (
              <Button
                key={action}
                size="sm"
                variant="secondary"
                disabled={running}
                onClick={() => onAction(action)}
              >
                <Icon className="h-3.5 w-3.5" aria-hidden />
                {label}
              </Button>
            ))}
          <Button size="sm" variant="ghost" onClick={onShowFile}>
            <FileText className="h-3.5 w-3.5" aria-hidden />
            Compose file
          </Button>
        </div>
      </header>
      {jobId !== null && (
        <div className="mt-3">
          <ProjectJobPanel jobId={jobId} onClose={onCloseJob} />
        </div>
      )}
      <ul className="mt-3 divide-y divide-slate-800/80">
        {project.services.map((s) => (
          <li key={s.name} data-testid="project-service" className="py-2">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-sm text-slate-200">{s.name}</span>
              <ProjectStateBadge state={s.state} />
              {s.depends_on.length > 0 && (
                <span className="text-xs text-slate-500">after {s.depends_on.join(', ')}</span>
              )}
            </div>
            <ul className="mt-1 space-y-0.5 pl-3">
              {s.containers.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center gap-x-3 text-xs">
                  <span className="break-all text-slate-300">{c.name}</span>
                  <ContainerStateDot state={c.state} />
                  <span className="truncate font-mono text-slate-500">{c.image}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </article>
  );
}
