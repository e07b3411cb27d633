import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readComposeFile } from '@berth/agent/compose-file';
import { COMPOSE_FILE_MAX_BYTES, COMPOSE_LABELS } from '@berth/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContainerSnapshot } from '../monitor/index.js';
import { containerSnapshot } from '../../test/container-snapshot.js';
import { dependsOnOf, groupProjects, startOrder } from './grouping.js';
import { orderText, planSteps } from './project-jobs.js';

let n = 0;
function container(
  project: string | null,
  service: string,
  state: ContainerSnapshot['state'],
  extra: Record<string, string> = {},
  hostId = 'h1',
): ContainerSnapshot {
  n += 1;
  const labels: Record<string, string> =
    project === null
      ? {}
      : {
          [COMPOSE_LABELS.project]: project,
          [COMPOSE_LABELS.service]: service,
          [COMPOSE_LABELS.workingDir]: `/srv/${project}`,
          [COMPOSE_LABELS.configFiles]: `/srv/${project}/compose.yaml`,
          ...extra,
        };
  return containerSnapshot(n, {
    name: `${project ?? 'solo'}-${service}-${n}`,
    state,
    labels,
    hostId,
    hostName: hostId,
  });
}

describe('compose projects from the monitor picture', () => {
  it('groups by host and project label, with each service and overall state', () => {
    const projects = groupProjects([
      container('shop', 'web', 'running'),
      container('shop', 'db', 'running'),
      container('shop', 'web', 'exited'),
      container('blog', 'app', 'exited'),
      container('blog', 'app', 'running', {}, 'h2'),
      container(null, 'lonely', 'running'),
    ]);
    expect(projects.map((p) => [p.name, p.host_id, p.state])).toEqual([
      ['blog', 'h1', 'stopped'],
      ['blog', 'h2', 'running'],
      ['shop', 'h1', 'partial'],
    ]);
    const shop = projects[2];
    expect(shop?.services.map((s) => [s.name, s.state, s.containers.length])).toEqual([
      ['db', 'running', 1],
      ['web', 'partial', 2],
    ]);
    expect(shop).toMatchObject({
      working_dir: '/srv/shop',
      config_files: ['/srv/shop/compose.yaml'],
      container_count: 3,
      running_count: 2,
    });
  });

  it('reads depends_on as compose writes it', () => {
    expect(dependsOnOf('db:service_started:false,cache:service_healthy:true')).toEqual([
      'db',
      'cache',
    ]);
    expect(dependsOnOf('')).toEqual([]);
    expect(dependsOnOf(undefined)).toEqual([]);
  });

  it('orders services after their dependencies, ties by name, and survives a cycle', () => {
    const deps = new Map([
      ['web', ['api']],
      ['api', ['db', 'cache']],
      ['db', []],
      ['cache', []],
      ['worker', ['db', 'elsewhere']],
    ]);
    expect(startOrder(deps)).toEqual(['cache', 'db', 'api', 'web', 'worker']);
    expect(
      startOrder(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', []],
        ]),
      ),
    ).toEqual(['c', 'a', 'b']);
  });

  it('plans stops backwards and a restart as stops then starts', () => {
    const [p] = groupProjects([
      container('app', 'web', 'running', {
        [COMPOSE_LABELS.dependsOn]: 'db:service_started:false',
      }),
      container('app', 'db', 'running'),
    ]);
    if (p === undefined) throw new Error('no project');
    const ops = (a: Parameters<typeof planSteps>[1]) =>
      planSteps(p, a).map((s) => `${s.operation} ${s.service}`);
    expect(ops('start')).toEqual(['start db', 'start web']);
    expect(ops('stop')).toEqual(['stop web', 'stop db']);
    expect(ops('restart')).toEqual(['stop web', 'stop db', 'start db', 'start web']);
    expect(ops('pull-recreate')).toEqual(['pull-recreate db', 'pull-recreate web']);
    expect(orderText(p, 'stop')).toBe(
      'Stopped by reverse dependency order (com.docker.compose.depends_on): web → db',
    );
    const [plain] = groupProjects([container('x', 'b', 'running'), container('x', 'a', 'running')]);
    if (plain === undefined) throw new Error('no project');
    expect(orderText(plain, 'start')).toBe('By service name: a → b');
  });
});

describe('reading a compose file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-compose-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a YAML file and refuses what is not one, too big, or not a normal path', async () => {
    const file = join(dir, 'compose.yaml');
    writeFileSync(file, 'services:\n  web:\n    image: busybox\n');
    await expect(readComposeFile(file)).resolves.toMatchObject({ size: 36 });
    await expect(readComposeFile(`${dir}/../${dir.split('/').pop()}/compose.yaml`)).rejects.toThrow(
      'Not an absolute, normal path',
    );
    await expect(readComposeFile('relative/compose.yaml')).rejects.toThrow('absolute');
    await expect(readComposeFile('/etc/passwd')).rejects.toThrow('Not a .yml or .yaml file');
    symlinkSync('/etc/passwd', join(dir, 'sneaky.yml'));
    await expect(readComposeFile(join(dir, 'sneaky.yml'))).rejects.toThrow('not YAML');
    await expect(readComposeFile(join(dir, 'missing.yml'))).rejects.toThrow('No such file');
    const big = join(dir, 'big.yml');
    writeFileSync(big, 'x'.repeat(COMPOSE_FILE_MAX_BYTES + 1));
    await expect(readComposeFile(big)).rejects.toThrow('at most');
  });
});
