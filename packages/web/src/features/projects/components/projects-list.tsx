import type { Project, ProjectAction } from '@berth/contracts';
import { Layers } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState } from '@/components/empty-state';
import { useCan } from '@/hooks/use-can';
import { errorText } from '@/lib/api-client';
import { useProjectAction } from '../api/projects-api';
import { ComposeFileDialog } from './compose-file-dialog';
import { ProjectCard } from './project-card';

const CONFIRM: Record<ProjectAction, { title: string; text: string; label: string }> = {
  start: {
    title: 'Start project',
    text: 'Starts every stopped container, dependencies first.',
    label: 'Start',
  },
  stop: {
    title: 'Stop project',
    text: 'Stops every running container, dependants first.',
    label: 'Stop',
  },
  restart: {
    title: 'Restart project',
    text: 'Stops every container (dependants first), then starts them (dependencies first).',
    label: 'Restart',
  },
  'pull-recreate': {
    title: 'Pull and recreate project',
    text: 'Pulls each container’s image; a container whose image changed is recreated with its own configuration and proven healthy, or put back as it was.',
    label: 'Pull & recreate',
  },
};

const keyOf = (p: Pick<Project, 'host_id' | 'name'>) => `${p.host_id}\n${p.name}`;

/** Projects as cards, with their actions behind a confirm and each job's progress in its card. */
export function ProjectsList({ projects, showHost }: { projects: Project[]; showHost: boolean }) {
  const canOperate = useCan('operate');
  const act = useProjectAction();
  const [asking, setAsking] = useState<{ project: Project; action: ProjectAction } | null>(null);
  const [jobs, setJobs] = useState<Record<string, string>>({});
  const [file, setFile] = useState<Project | null>(null);
  if (projects.length === 0)
    return (
      <EmptyState icon={Layers} title="No compose projects">
        Containers started by docker compose show here, grouped by their project.
      </EmptyState>
    );
  const confirm = () => {
    if (asking === null) return;
    const { project } = asking;
    act.mutate(asking, {
      onSuccess: (job) => setJobs((j) => ({ ...j, [keyOf(project)]: job.job_id })),
      onError: (err) => toast.error(errorText(err)),
      onSettled: () => setAsking(null),
    });
  };
  return (
    <>
      <div className="grid gap-4" data-testid="projects-list">
        {projects.map((p) => (
          <ProjectCard
            key={keyOf(p)}
            project={p}
            showHost={showHost}
            canOperate={canOperate}
            jobId={jobs[keyOf(p)] ?? null}
            onAction={(action) => setAsking({ project: p, action })}
            onShowFile={() => setFile(p)}
            onCloseJob={() =>
              setJobs((j) => Object.fromEntries(Object.entries(j).filter(([k]) => k !== keyOf(p))))
            }
          />
        ))}
      </div>
      {asking !== null && (
        <ConfirmDialog
          open
          title={`${CONFIRM[asking.action].title} ${asking.project.name}`}
          description={`${CONFIRM[asking.action].text} ${asking.project.container_count} containers on ${asking.project.host_name}.`}
          confirmLabel={CONFIRM[asking.action].label}
          danger={asking.action !== 'start'}
          busy={act.isPending}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        />
      )}
      {file !== null && <ComposeFileDialog project={file} onClose={() => setFile(null)} />}
    </>
  );
}
