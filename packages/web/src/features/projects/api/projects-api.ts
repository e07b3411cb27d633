import {
  composeFilesSchema,
  projectJobSchema,
  projectSchema,
  type Project,
  type ProjectAction,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const projectsKey = ['projects'] as const;

/** The fleet's projects (`host` narrows them to one host), refreshed while shown. */
export const projectsQueryOptions = (host?: string) =>
  queryOptions({
    queryKey: [...projectsKey, 'fleet', host ?? 'all'],
    queryFn: () => api('/projects', z.array(projectSchema), { params: { host } }),
    refetchInterval: 5000,
  });

/** One host's projects, for its modal's tab. */
export const hostProjectsQueryOptions = (hostId: string) =>
  queryOptions({
    queryKey: [...projectsKey, 'host', hostId],
    queryFn: () => api(`/hosts/${hostId}/projects`, z.array(projectSchema)),
    refetchInterval: 5000,
  });

/** A project action's progress, asked every second until it ends. */
export const projectJobQueryOptions = (jobId: string) =>
  queryOptions({
    queryKey: ['project-jobs', jobId],
    queryFn: () => api(`/projects/jobs/${jobId}`, projectJobSchema),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
  });

export const composeFileQueryOptions = (p: Pick<Project, 'host_id' | 'name'>) =>
  queryOptions({
    queryKey: ['compose-file', p.host_id, p.name],
    queryFn: () =>
      api(
        `/hosts/${p.host_id}/projects/${encodeURIComponent(p.name)}/compose-file`,
        composeFilesSchema,
      ),
    staleTime: 10_000,
  });

/** Starts an action on a whole project; answers its job. */
export function useProjectAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ project, action }: { project: Project; action: ProjectAction }) =>
      api(
        `/hosts/${project.host_id}/projects/${encodeURIComponent(project.name)}/${action}`,
        projectJobSchema,
        { method: 'POST' },
      ),
    onSuccess: (job) => qc.setQueryData(projectJobQueryOptions(job.job_id).queryKey, job),
  });
}

/** Reads the lists again (a job ended). */
export function useRefreshProjects() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: projectsKey });
}
