import { useQuery } from '@tanstack/react-query';
import { errorText } from '@/lib/api-client';
import { hostProjectsQueryOptions } from '../api/projects-api';
import { ProjectsList } from './projects-list';

/** One host's compose projects, for the host modal's Projects tab. */
export function HostProjectsTab({ hostId }: { hostId: string }) {
  const projects = useQuery(hostProjectsQueryOptions(hostId));
  return (
    <div data-testid="host-projects" data-host-id={hostId}>
      {projects.isPending && <p className="text-sm text-slate-400">Loading projects…</p>}
      {projects.error !== null && (
        <p className="text-sm text-red-300">{errorText(projects.error)}</p>
      )}
      {projects.data !== undefined && <ProjectsList projects={projects.data} showHost={false} />}
    </div>
  );
}
