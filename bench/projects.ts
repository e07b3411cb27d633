// bench/projects: what grouping a fleet's containers into compose projects costs per request
// (GET /api/projects groups the monitor's picture each time, no engine call). Prints figures;
// asserts nothing. Run after a build of the server (an e2e run or `npm run build`):
//   node bench/projects.ts [containers=10000] [projects=1000] [hosts=50]
import { join, resolve } from 'node:path';
import type { ContainerSnapshot } from '../packages/server/src/modules/monitor/index.ts';
import { containerSnapshot } from '../packages/server/src/test/container-snapshot.ts';
import { f1, machineSpeedMs, pct } from './figures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { groupProjects } = (await import(
  join(ROOT, 'packages/server/dist/modules/projects/index.js')
)) as typeof import('../packages/server/src/modules/projects/index.ts');

const [CONTAINERS = 10_000, PROJECTS = 1000, HOSTS = 50] = process.argv.slice(2).map(Number);
const SERVICES = 5;

console.log(`machine speed ${f1(machineSpeedMs())} ms (shared, noisy VM)`);
const containers: ContainerSnapshot[] = Array.from({ length: CONTAINERS }, (_, i) => {
  const project = `proj-${i % PROJECTS}`;
  const service = `svc-${Math.floor(i / PROJECTS) % SERVICES}`;
  return containerSnapshot(i, {
    name: `${project}-${service}-${i}`,
    image: 'busybox:latest',
    state: i % 7 === 0 ? 'exited' : 'running',
    labels: {
      'com.docker.compose.project': project,
      'com.docker.compose.service': service,
      'com.docker.compose.project.working_dir': `/srv/${project}`,
      'com.docker.compose.project.config_files': `/srv/${project}/compose.yaml`,
      'com.docker.compose.depends_on': service === 'svc-0' ? '' : 'svc-0:service_started:false',
    },
    hostId: `host-${(i % PROJECTS) % HOSTS}`,
    hostName: `host-${(i % PROJECTS) % HOSTS}`,
  });
});

const times: number[] = [];
let count = 0;
for (let run = 0; run < 30; run++) {
  const start = performance.now();
  count = groupProjects(containers).length;
  times.push(performance.now() - start);
}
const bytes = JSON.stringify(groupProjects(containers)).length;
console.log(
  `${CONTAINERS} containers → ${count} projects on ${HOSTS} hosts: grouping p50 ${f1(pct(times, 50))} ms, p95 ${f1(pct(times, 95))} ms; answer ${f1(bytes / 1024)} KB`,
);
