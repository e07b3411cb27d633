import type { ComposeFiles, Project, ProjectAction, ProjectJob } from '@berth/contracts';
import { notFound } from '../../platform/http-errors.js';
import type { Fleet } from '../monitor/index.js';
import { readProjectFiles, type ComposeFileReach } from './compose-files.js';
import { groupProjects } from './grouping.js';
import { ProjectJobs, type ProjectJobsDeps } from './project-jobs.js';

export interface ProjectsDeps extends ProjectJobsDeps {
  fleet: Pick<Fleet, 'container' | 'containers' | 'host'>;
  files: ComposeFileReach;
}

/**
 * Compose projects (decision 043): the monitor's containers grouped by their compose labels,
 * actions on a whole project, and its compose file, read-only.
 */
export class ProjectsService {
  private readonly jobs: ProjectJobs;

  constructor(private readonly deps: ProjectsDeps) {
    this.jobs = new ProjectJobs(deps);
  }

  /** Every project of the hosts the caller reaches, or of one host (`field`: where it was named). */
  list(reaches: (hostId: string) => boolean, hostId?: string, field = 'host: '): Project[] {
    if (hostId !== undefined && (this.deps.fleet.host(hostId) === undefined || !reaches(hostId)))
      throw notFound(`${field}Host not found`);
    const containers = this.deps.fleet.containers(hostId).filter((c) => reaches(c.hostId));
    return groupProjects(containers);
  }

  project(hostId: string, name: string): Project {
    if (this.deps.fleet.host(hostId) === undefined) throw notFound('Host not found');
    const found = groupProjects(this.deps.fleet.containers(hostId)).find((p) => p.name === name);
    if (found === undefined) throw notFound(`Project ${name} not found on this host`);
    return found;
  }

  act(hostId: string, name: string, action: ProjectAction, username: string): ProjectJob {
    return this.jobs.start(this.project(hostId, name), action, username);
  }

  job(jobId: string, reaches: (hostId: string) => boolean): ProjectJob {
    return this.jobs.get(jobId, reaches);
  }

  composeFiles(hostId: string, name: string): Promise<ComposeFiles> {
    return readProjectFiles(this.project(hostId, name), this.deps.files);
  }
}
