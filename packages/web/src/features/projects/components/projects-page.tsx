import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { Select } from '@/components/ui/select';
import { errorText } from '@/lib/api-client';
import { hostsQueryOptions } from '@/lib/queries';
import { projectsQueryOptions } from '../api/projects-api';
import { ProjectsList } from './projects-list';

/** The fleet's compose projects, with a host filter. */
export function ProjectsPage() {
  const [host, setHost] = useState('');
  const hosts = useQuery(hostsQueryOptions());
  const projects = useQuery(projectsQueryOptions(host === '' ? undefined : host));
  return (
    <div data-testid="projects-page">
      <PageHeader
        title="Projects"
        subtitle="Containers grouped by their docker compose project"
        actions={
          <label className="flex items-center gap-2 text-sm text-slate-400">
            Host
            <Select
              aria-label="Host"
              data-testid="projects-host-filter"
              value={host}
              onChange={(e) => setHost(e.target.value)}
            >
              <option value="">All hosts</option>
              {(hosts.data ?? []).map((h) => (
                <option key={h.id} value={h.id}>
                  {h.name}
                </option>
              ))}
            </Select>
          </label>
        }
      />
      {projects.isPending && <p className="text-sm text-slate-400">Loading projects…</p>}
      {projects.error !== null && (
        <p className="text-sm text-red-300">{errorText(projects.error)}</p>
      )}
      {projects.data !== undefined && (
        <ProjectsList projects={projects.data} showHost={host === ''} />
      )}
    </div>
  );
}
