import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPOSE_LABELS } from '@berth/contracts';
import type { ComposeFiles, Host, Project, ProjectJob } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, IDLE, readRig, rigEngine, type RigEngine } from '../../test/rig.js';
import { pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// Compose projects made without the compose binary: busybox containers carrying the labels
// compose writes. One project on the local socket (its file read by Berth itself), one on the
// plain TCP engine pulled from the rig's registry (its file out of Berth's reach).
const hex = randomBytes(3).toString('hex');
const local = rigEngine('local');
const plain = rigEngine('plain');
const dir = mkdtempSync(join(tmpdir(), `berth-proj-${hex}-`));
const composePath = join(dir, 'compose.yaml');
const composeText = `services:\n  db:\n    image: busybox\n  web:\n    depends_on: [db]\n`;
const repo = `${readRig().registry}/berth-test/proj-${hex}`;

/** Runs one service container of `project` with compose's labels. */
function runService(
  engine: RigEngine,
  project: string,
  service: string,
  opts: { image?: string; dependsOn?: string; options?: string[]; command?: string } = {},
): string {
  const labels = {
    [COMPOSE_LABELS.project]: project,
    [COMPOSE_LABELS.service]: service,
    [COMPOSE_LABELS.workingDir]: dir,
    [COMPOSE_LABELS.configFiles]: composePath,
    ...(opts.dependsOn === undefined ? {} : { [COMPOSE_LABELS.dependsOn]: opts.dependsOn }),
  };
  const name = `${project}-${service}-1`;
  dockerCli(engine, [
    'run',
    '-d',
    '--name',
    name,
    ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
    ...(opts.options ?? []),
    opts.image ?? readRig().images.busybox,
    'sh',
    '-c',
    opts.command ?? IDLE,
  ]);
  return name;
}

function inspect(engine: RigEngine, name: string) {
  const [info] = JSON.parse(dockerCli(engine, ['inspect', name])) as {
    Id: string;
    State: { StartedAt: string; FinishedAt: string; Running: boolean };
    Config: { Labels: Record<string, string> };
  }[];
  if (info === undefined) throw new Error(`no container ${name}`);
  return info;
}

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let localHost: Host;
let plainHost: Host;
const localProject = `berthproj${hex}`;
const plainProject = `berthpull${hex}`;
const healthProject = `berthhealth${hex}`;

beforeAll(async () => {
  writeFileSync(composePath, composeText);
  runService(local, localProject, 'db');
  runService(local, localProject, 'web', { dependsOn: 'db:service_started:false' });
  // A db healthy 3 s after each start, and a web that waits for it (service_healthy).
  runService(local, healthProject, 'db', {
    options: ['--health-cmd', 'test -f /tmp/ready', '--health-interval', '1s'],
    command: `rm -f /tmp/ready; sleep 3; touch /tmp/ready; ${IDLE}`,
  });
  runService(local, healthProject, 'web', { dependsOn: 'db:service_healthy:false' });
  const cli = (...args: string[]) => dockerCli(plain, args);
  await pushTagged(cli, repo, 'db');
  await pushTagged(cli, repo, 'web');
  runService(plain, plainProject, 'db', { image: `${repo}:db` });
  runService(plain, plainProject, 'web', { image: `${repo}:web`, dependsOn: 'db:x:false' });
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  localHost = (await api.post<Host>('/hosts', { name: 'rig-local', url: local.url, tags: [] }))
    .body;
  plainHost = (await api.post<Host>('/hosts', { name: 'rig-plain', url: plain.url, tags: [] }))
    .body;
}, 120_000);

afterAll(async () => {
  for (const [engine, project] of [
    [local, localProject],
    [local, healthProject],
    [plain, plainProject],
  ] as const) {
    const ids = dockerCli(engine, [
      'ps',
      '-aq',
      '--filter',
      `label=${COMPOSE_LABELS.project}=${project}`,
    ]);
    if (ids !== '') dockerCli(engine, ['rm', '-f', ...ids.split('\n')]);
  }
  try {
    dockerCli(plain, ['rmi', '-f', `${repo}:db`, `${repo}:web`]);
  } catch {
    // gone
  }
  await t.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const projectOn = (hostId: string, name: string) =>
  waitFor(
    `project ${name}`,
    async () => {
      const list = (await api.get<Project[]>(`/hosts/${hostId}/projects`)).body;
      const p = Array.isArray(list) ? list.find((x) => x.name === name) : undefined;
      return p !== undefined && p.container_count === 2 ? p : undefined;
    },
    60_000,
  );

async function runJob(hostId: string, project: string, action: string): Promise<ProjectJob> {
  const started = await api.post<ProjectJob>(`/hosts/${hostId}/projects/${project}/${action}`);
  expect(started.status).toBe(202);
  return waitFor(
    `${action} of ${project}`,
    async () => {
      const job = (await api.get<ProjectJob>(`/projects/jobs/${started.body.job_id}`)).body;
      return job.status === 'running' ? undefined : job;
    },
    90_000,
    200,
  );
}

describe('compose projects on the rig', { timeout: 180_000 }, () => {
  it('groups the labelled containers into a project with its services in order', async () => {
    const p = await projectOn(localHost.id, localProject);
    expect(p).toMatchObject({
      state: 'running',
      working_dir: dir,
      config_files: [composePath],
      running_count: 2,
    });
    expect(p.services.map((s) => [s.name, s.state, s.depends_on])).toEqual([
      ['db', 'running', []],
      ['web', 'running', ['db']],
    ]);
    const fleet = (await api.get<Project[]>(`/projects?host=${localHost.id}`)).body;
    expect(fleet.map((x) => x.name)).toContain(localProject);
    const nope = await api.get<{ detail: string }>(`/projects?host=nope`);
    expect(nope.status).toBe(404);
    expect(nope.body.detail).toContain('Host not found');
  });

  it('stops in reverse dependency order, starts and restarts in order', async () => {
    const stopped = await runJob(localHost.id, localProject, 'stop');
    expect(stopped.steps.map((s) => [s.operation, s.service, s.status])).toEqual([
      ['stop', 'web', 'completed'],
      ['stop', 'db', 'completed'],
    ]);
    expect(stopped.order).toContain('reverse dependency order');
    const web = inspect(local, `${localProject}-web-1`);
    const db = inspect(local, `${localProject}-db-1`);
    expect(Date.parse(web.State.FinishedAt)).toBeLessThanOrEqual(Date.parse(db.State.FinishedAt));
    const down = await waitFor('project stopped', async () => {
      const p = await projectOn(localHost.id, localProject);
      return p.state === 'stopped' ? p : undefined;
    });
    expect(down.running_count).toBe(0);

    const again = await runJob(localHost.id, localProject, 'stop');
    expect(again.steps.every((s) => s.status === 'skipped')).toBe(true);

    const started = await runJob(localHost.id, localProject, 'start');
    expect(started.steps.map((s) => `${s.operation} ${s.service} ${s.status}`)).toEqual([
      'start db completed',
      'start web completed',
    ]);
    const web2 = inspect(local, `${localProject}-web-1`);
    const db2 = inspect(local, `${localProject}-db-1`);
    expect(Date.parse(db2.State.StartedAt)).toBeLessThanOrEqual(Date.parse(web2.State.StartedAt));

    const restarted = await runJob(localHost.id, localProject, 'restart');
    expect(restarted.steps.map((s) => `${s.operation} ${s.service} ${s.status}`)).toEqual([
      'stop web completed',
      'stop db completed',
      'start db completed',
      'start web completed',
    ]);
    const audit = await waitFor('audit of the steps', async () => {
      const rows = (
        await api.get<{ entries: { action: string; target: string | null }[] }>(`/audit?limit=200`)
      ).body.entries;
      return rows.filter((r) => r.target === `project ${localProject}`).length >= 10
        ? rows
        : undefined;
    });
    expect(audit.some((r) => r.action === 'hosts.projects.restart')).toBe(true);
  });

  it('starts a service after its service_healthy dependency is healthy', async () => {
    await projectOn(localHost.id, healthProject);
    await runJob(localHost.id, healthProject, 'stop');
    const started = await runJob(localHost.id, healthProject, 'start');
    expect(started.steps.map((s) => `${s.service} ${s.status}`)).toEqual([
      'db completed',
      'web completed',
    ]);
    const db = inspect(local, `${healthProject}-db-1`);
    const web = inspect(local, `${healthProject}-web-1`);
    expect(Date.parse(web.State.StartedAt) - Date.parse(db.State.StartedAt)).toBeGreaterThan(2500);
  });

  it('shows the compose file of a local project, and says why not over TCP', async () => {
    const files = (
      await api.get<ComposeFiles>(`/hosts/${localHost.id}/projects/${localProject}/compose-file`)
    ).body;
    expect(files).toEqual({
      source: 'local',
      reason: null,
      files: [{ path: composePath, content: composeText, size: composeText.length, error: null }],
    });
    await projectOn(plainHost.id, plainProject);
    const far = (
      await api.get<ComposeFiles>(`/hosts/${plainHost.id}/projects/${plainProject}/compose-file`)
    ).body;
    expect(far.source).toBe('none');
    expect(far.reason).toContain('over TCP');
    const missing = await api.get(`/hosts/${localHost.id}/projects/nothere${hex}/compose-file`);
    expect(missing.status).toBe(404);
    const bad = await api.post(`/hosts/${localHost.id}/projects/${localProject}/explode`);
    expect(bad.status).toBe(400);
    expect((bad.body as { detail: string }).detail).toMatch(/^action: /i);
  });

  it('pulls and recreates: a changed image is recreated with its own config, the rest left', async () => {
    const before = await projectOn(plainHost.id, plainProject);
    const oldWeb = before.services.find((s) => s.name === 'web')?.containers[0]?.id;
    // A new image under the same tag.
    await pushTagged((...args) => dockerCli(plain, args), repo, 'web', ['ENV REV=2']);
    t.app.services.updates.settleMs = 1000;
    const job = await runJob(plainHost.id, plainProject, 'pull-recreate');
    expect(job.steps.map((s) => `${s.service} ${s.status}`)).toEqual([
      'db skipped',
      'web completed',
    ]);
    expect(job.steps[0]?.message).toBe('Image unchanged: not recreated');
    const newWeb = job.steps[1]?.new_container_id;
    expect(newWeb).toMatch(/^[0-9a-f]{12}$/);
    expect(newWeb).not.toBe(oldWeb);
    const info = inspect(plain, `${plainProject}-web-1`);
    expect(info.Id.startsWith(newWeb ?? '-')).toBe(true);
    expect(info.State.Running).toBe(true);
    expect(info.Config.Labels[COMPOSE_LABELS.dependsOn]).toBe('db:x:false');
    const after = await waitFor('the new web in the project', async () => {
      const p = await projectOn(plainHost.id, plainProject);
      return p.services.find((s) => s.name === 'web')?.containers[0]?.id === newWeb ? p : undefined;
    });
    expect(after.state).toBe('running');
  });
});
