import { composeFilesOf } from '@berth/agent/compose-file';
import { COMPOSE_LABELS, type Project, type ProjectState } from '@berth/contracts';
import type { ContainerSnapshot } from '../monitor/index.js';

/** A project's name and host, as the map of projects keys them. */
export const projectKey = (hostId: string, name: string) => `${hostId}\n${name}`;

/** What counts as up: a restarting container is the engine keeping it running. */
const isUp = (c: Pick<ContainerSnapshot, 'state'>) =>
  c.state === 'running' || c.state === 'restarting';

function stateOf(containers: readonly Pick<ContainerSnapshot, 'state'>[]): ProjectState {
  const up = containers.filter(isUp).length;
  if (up === 0) return 'stopped';
  return up === containers.length ? 'running' : 'partial';
}

/**
 * Service names from `com.docker.compose.depends_on`: compose writes
 * `db:service_started:false,cache:service_healthy:true` (service, condition, restart).
 */
export function dependsOnOf(label: string | undefined): string[] {
  if (label === undefined || label.trim() === '') return [];
  const names = label
    .split(',')
    .map((part) => part.split(':')[0]?.trim() ?? '')
    .filter((n) => n !== '');
  return [...new Set(names)];
}

/**
 * Services in start order: each after the services it depends on, ties (and services without
 * dependencies) by name. A dependency outside the project is ignored; a cycle (compose refuses
 * one, but labels can be set by hand) is broken by taking the first remaining name.
 */
export function startOrder(services: ReadonlyMap<string, readonly string[]>): string[] {
  const remaining = new Set([...services.keys()].sort());
  const order: string[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].find((name) =>
      (services.get(name) ?? []).every((dep) => !remaining.has(dep) || dep === name),
    );
    const next = ready ?? [...remaining][0];
    if (next === undefined) break;
    order.push(next);
    remaining.delete(next);
  }
  return order;
}

/**
 * The compose projects among `containers` (the monitor's picture; no engine call): containers
 * grouped by host and `com.docker.compose.project`, services in start order, each service's
 * containers by name. Containers without the label are no project's.
 */
export function groupProjects(containers: readonly ContainerSnapshot[]): Project[] {
  const byProject = new Map<string, ContainerSnapshot[]>();
  for (const c of containers) {
    const name = c.labels[COMPOSE_LABELS.project];
    if (name === undefined || name === '') continue;
    const key = projectKey(c.hostId, name);
    const list = byProject.get(key);
    if (list === undefined) byProject.set(key, [c]);
    else list.push(c);
  }
  const projects: Project[] = [];
  for (const members of byProject.values()) {
    const first = members[0];
    if (first === undefined) continue;
    const byService = new Map<string, ContainerSnapshot[]>();
    const deps = new Map<string, string[]>();
    for (const c of members) {
      const service = c.labels[COMPOSE_LABELS.service] || c.name;
      byService.set(service, [...(byService.get(service) ?? []), c]);
      const known = deps.get(service) ?? [];
      deps.set(service, [
        ...new Set([...known, ...dependsOnOf(c.labels[COMPOSE_LABELS.dependsOn])]),
      ]);
    }
    const files = new Set<string>();
    let workingDir: string | null = null;
    for (const c of members) {
      for (const f of composeFilesOf(c.labels[COMPOSE_LABELS.configFiles])) files.add(f);
      workingDir ??= c.labels[COMPOSE_LABELS.workingDir] || null;
    }
    const services = startOrder(deps).map((service) => {
      const list = [...(byService.get(service) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
      return {
        name: service,
        state: stateOf(list),
        depends_on: (deps.get(service) ?? []).filter((d) => byService.has(d) && d !== service),
        containers: list.map((c) => ({
          id: c.id,
          name: c.name,
          image: c.image,
          state: c.state,
          health: c.health,
        })),
      };
    });
    projects.push({
      host_id: first.hostId,
      host_name: first.hostName,
      name: first.labels[COMPOSE_LABELS.project] ?? '',
      state: stateOf(members),
      working_dir: workingDir,
      config_files: [...files],
      services,
      container_count: members.length,
      running_count: members.filter(isUp).length,
    });
  }
  return projects.sort(
    (a, b) => a.name.localeCompare(b.name) || a.host_name.localeCompare(b.host_name),
  );
}

/** Whether some service names a dependency: the order then follows them, else the names. */
export const hasDependencies = (p: Project) => p.services.some((s) => s.depends_on.length > 0);

export { isUp };
