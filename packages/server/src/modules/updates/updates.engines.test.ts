import { randomBytes } from 'node:crypto';
import {
  containerKey,
  containerKeyOf,
  type Container,
  type ExecuteUpdateResponse,
  type Host,
  type LiveMessage,
  type UpdateStatus,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// Real updates on the rig's plain engine against the rig registry: versions pushed, a
// container run on 1.0.0, then patch/minor/latest, an update with the same config, a bad
// HEALTHCHECK rolled back, a stopped container kept stopped, block and warn policies.
const engine = rigEngine('plain');
const rand = randomBytes(3).toString('hex');
const repo = `${readRig().registry}/berth-test/upd-${rand}`;
const badRepo = `${readRig().registry}/berth-test/upd-bad-${rand}`;
const net = `berth-upd-${rand}`;
const IDLE = "trap 'exit 0' TERM; while :; do sleep 1; done";
const made: string[] = [];
const images: string[] = [];
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;
const live: LiveMessage[] = [];
const cli = (...args: string[]) => dockerCli(engine, args);

/** Pushes busybox with a distinct label (and optional Dockerfile-like changes) as repo:tag. */
function push(repository: string, tag: string, changes: string[] = []) {
  const tmp = `berth-upd-src-${randomBytes(3).toString('hex')}`;
  cli('create', '--name', tmp, readRig().images.busybox, 'true');
  const c = ['-c', `LABEL berth.version=${tag}`, ...changes.flatMap((x) => ['-c', x])];
  cli('commit', ...c, tmp, `${repository}:${tag}`);
  cli('rm', tmp);
  cli('push', '-q', `${repository}:${tag}`);
  images.push(`${repository}:${tag}`);
}

function run(image: string, extra: string[] = []): string {
  const name = `berth-upd-${randomBytes(4).toString('hex')}`;
  made.push(name);
  cli('run', '-d', '--name', name, ...extra, image, 'sh', '-c', IDLE);
  return name;
}

async function containerOf(name: string): Promise<Container> {
  return waitFor('container listed', async () => {
    const all = (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body;
    return all.find((c) => c.name === name);
  });
}

const base = (c: Container) => `/hosts/${c.host_id}/containers/${c.id}`;

async function mode(c: Container, m: 'exact' | 'patch' | 'minor' | 'latest') {
  const res = await api.put<UpdateStatus>(`${base(c)}/auto-update-config`, {
    floating_tag_mode: m,
  });
  expect(res.status).toBe(200);
  return (await api.post<UpdateStatus>(`${base(c)}/check-update`)).body;
}

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'rig-plain', url: engine.url, tags: [] })).body;
  await waitFor(
    'plain host online',
    async () =>
      (await api.get<Host[]>('/hosts')).body.find((h) => h.id === host.id)?.status === 'online'
        ? true
        : undefined,
    60_000,
  );
  t.app.services.updates.settleMs = 1500;
  await api.put('/settings', { health_check_timeout_seconds: 20 });
  const publish = t.app.services.hub.publish.bind(t.app.services.hub);
  t.app.services.hub.publish = (m) => {
    live.push(m);
    publish(m);
  };
  for (const tag of ['1.0.0', '1.0.1', '1.1.0', '2.0.0', '0.9.0', '1.1.0-rc1', 'latest'])
    push(repo, tag);
  push(badRepo, '1.0.0');
  push(badRepo, '1.0.1', ['HEALTHCHECK --interval=1s --timeout=1s --retries=2 CMD false']);
  cli('network', 'create', '--subnet', '172.29.77.0/24', net);
}, 120_000);

afterAll(async () => {
  for (const name of made) {
    try {
      const all = cli('ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}');
      for (const n of all.split('\n').filter(Boolean)) cli('rm', '-f', n);
    } catch {
      // already gone
    }
  }
  try {
    cli('network', 'rm', net);
  } catch {
    // in use or gone
  }
  for (const image of images) {
    try {
      cli('rmi', '-f', image);
    } catch {
      // gone
    }
  }
  await t.close();
}, 60_000);

describe('image updates on a real engine', { timeout: 120_000 }, () => {
  it('patch, minor and latest each find the right tag; exact only the same tag', async () => {
    const c = await containerOf(run(`${repo}:1.0.0`));
    expect((await mode(c, 'exact')).update_available).toBe(false);
    const patch = await mode(c, 'patch');
    expect(patch).toMatchObject({ update_available: true, latest_image: `${repo}:1.0.1` });
    expect((await mode(c, 'minor')).latest_image).toBe(`${repo}:1.1.0`);
    expect((await mode(c, 'latest')).latest_image).toBe(`${repo}:2.0.0`);
    const status = (await api.get<UpdateStatus>(`${base(c)}/update-status`)).body;
    expect(status).toMatchObject({
      floating_tag_mode: 'latest',
      current_image: `${repo}:1.0.0`,
      changelog_source: 'failed',
      is_compose_container: false,
    });
    const summary = (await api.get<{ containers_with_updates: string[] }>('/updates/summary')).body;
    expect(summary.containers_with_updates).toContain(containerKeyOf(c));
  });

  it('an update keeps the whole config, settings and tags, with live progress', async () => {
    const name = run(`${repo}:1.0.0`, [
      '-e',
      'FOO=bar',
      '-l',
      'team=ops',
      '--restart',
      'unless-stopped',
      '--memory',
      '64m',
      '--network',
      net,
      '--network-alias',
      'web-alias',
      '--ip',
      '172.29.77.50',
      '--hostname',
      'myhost',
      '-w',
      '/tmp',
      '-v',
      '/data',
    ]);
    cli('exec', name, 'sh', '-c', 'echo kept > /data/file');
    const c = await containerOf(name);
    await api.patch(`${base(c)}/tags`, { tags_to_add: ['keepme'], tags_to_remove: [] });
    await mode(c, 'minor');
    live.length = 0;
    const res = await api.post<ExecuteUpdateResponse>(`${base(c)}/execute-update`);
    expect(res.body).toMatchObject({
      status: 'success',
      message: 'Container updated successfully',
    });
    const newId = res.body.new_container_id ?? '';
    expect(newId).not.toBe(c.id);

    const stages = live.flatMap((m) => (m.type === 'container_update_progress' ? [m.data] : []));
    expect(stages[0]).toMatchObject({
      stage: 'starting',
      progress: 0,
      message: 'Initializing update...',
    });
    expect(stages.map((s) => s.stage)).toEqual(
      expect.arrayContaining(['pulling', 'creating', 'starting', 'verifying', 'completed']),
    );
    expect(live.some((m) => m.type === 'container_update_layer_progress')).toBe(true);
    expect(live).toContainEqual({
      type: 'container_recreated',
      data: {
        host_id: c.host_id,
        old_composite_key: containerKey(c.host_id, c.id),
        new_composite_key: containerKey(c.host_id, newId),
        container_name: c.name,
      },
    });

    const info = (JSON.parse(cli('inspect', name)) as unknown[])[0] as {
      Id: string;
      Config: {
        Image: string;
        Env: string[];
        Labels: Record<string, string>;
        Hostname: string;
        WorkingDir: string;
      };
      HostConfig: { RestartPolicy: { Name: string }; Memory: number };
      NetworkSettings: {
        Networks: Record<string, { Aliases: string[]; IPAMConfig: { IPv4Address: string } }>;
      };
      State: { Running: boolean };
    };
    expect(info.Id.slice(0, 12)).toBe(newId);
    expect(info.Config.Image).toBe(`${repo}:1.1.0`);
    expect(info.Config.Env).toContain('FOO=bar');
    expect(info.Config.Labels).toMatchObject({ team: 'ops', 'berth.version': '1.1.0' });
    expect(info.Config.Hostname).toBe('myhost');
    expect(info.Config.WorkingDir).toBe('/tmp');
    expect(info.HostConfig.RestartPolicy.Name).toBe('unless-stopped');
    expect(info.HostConfig.Memory).toBe(64 * 1024 * 1024);
    expect(info.NetworkSettings.Networks[net]?.Aliases).toContain('web-alias');
    expect(info.NetworkSettings.Networks[net]?.IPAMConfig.IPv4Address).toBe('172.29.77.50');
    expect(info.State.Running).toBe(true);
    expect(cli('exec', name, 'cat', '/data/file')).toBe('kept');
    expect(
      cli('ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}').split('\n'),
    ).toEqual([name]);

    const after = await containerOf(name);
    await waitFor('new id listed', async () =>
      (await containerOf(name)).id === newId ? true : undefined,
    );
    expect(after.tags).toContain('keepme');
    const status = (
      await api.get<UpdateStatus>(`/hosts/${c.host_id}/containers/${newId}/update-status`)
    ).body;
    expect(status).toMatchObject({
      update_available: false,
      floating_tag_mode: 'minor',
      previous_image: `${repo}:1.0.0`,
    });

    // Roll back: the previous image, the same config, under the same name.
    const back = await api.post<ExecuteUpdateResponse>(
      `/hosts/${c.host_id}/containers/${newId}/rollback-update`,
    );
    expect(back.body.status).toBe('success');
    const rolled = (JSON.parse(cli('inspect', name)) as unknown[])[0] as {
      Config: { Image: string; Env: string[] };
      State: { Running: boolean };
    };
    expect(rolled.Config.Image).toBe(`${repo}:1.0.0`);
    expect(rolled.Config.Env).toContain('FOO=bar');
    expect(rolled.State.Running).toBe(true);
  });

  it('a new version whose HEALTHCHECK fails is rolled back and not offered again', async () => {
    const name = run(`${badRepo}:1.0.0`);
    const c = await containerOf(name);
    expect((await mode(c, 'patch')).latest_image).toBe(`${badRepo}:1.0.1`);
    const res = await api.post<ExecuteUpdateResponse>(`${base(c)}/execute-update`);
    expect(res.body.status).toBe('failed');
    expect(res.body.detail).toBe(
      'The update failed and your container has been automatically restored to its previous state.',
    );
    const info = (JSON.parse(cli('inspect', name)) as unknown[])[0] as {
      Id: string;
      Config: { Image: string };
      State: { Running: boolean };
    };
    expect(info.Id.slice(0, 12)).toBe(c.id);
    expect(info.Config.Image).toBe(`${badRepo}:1.0.0`);
    expect(info.State.Running).toBe(true);
    expect(
      cli('ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}').split('\n'),
    ).toEqual([name]);
    const again = (await api.post<UpdateStatus>(`${base(c)}/check-update`)).body;
    expect(again.update_available).toBe(false);
    expect(again.failed_digest).not.toBeNull();
  });

  it('while an update runs, neither the container nor its backup takes power actions', async () => {
    const name = run(`${repo}:1.0.0`);
    const c = await containerOf(name);
    await mode(c, 'patch');
    // A longer settle period: the new container runs under the name while the previous one
    // waits, stopped and renamed, for as long as the test needs.
    t.app.services.updates.settleMs = 6000;
    try {
      const update = api.post<ExecuteUpdateResponse>(`${base(c)}/execute-update`);
      const fresh = await waitFor('new container listed', async () => {
        const x = await containerOf(name);
        return x.id !== c.id && x.state === 'running' ? x : undefined;
      });
      const busy = 'Container is being updated; try again when the update has finished';
      const startBackup = await api.post<{ detail: string }>(`${base(c)}/start`);
      expect(startBackup).toMatchObject({ status: 409, body: { detail: busy } });
      const stopNew = await api.post<{ detail: string }>(`${base(fresh)}/stop`);
      expect(stopNew).toMatchObject({ status: 409, body: { detail: busy } });
      expect((await update).body.status).toBe('success');
      expect((await api.post(`${base(fresh)}/restart`)).status).toBe(200);
    } finally {
      t.app.services.updates.settleMs = 1500;
    }
  });

  it('a stopped container stays stopped after its update', async () => {
    const name = run(`${repo}:1.0.0`);
    cli('stop', '-t', '1', name);
    const c = await waitFor('stopped', async () => {
      const x = await containerOf(name);
      return x.state === 'exited' ? x : undefined;
    });
    await mode(c, 'patch');
    const res = await api.post<ExecuteUpdateResponse>(`${base(c)}/execute-update`);
    expect(res.body.status).toBe('success');
    const info = (JSON.parse(cli('inspect', name)) as unknown[])[0] as {
      Config: { Image: string };
      State: { Running: boolean };
    };
    expect(info.Config.Image).toBe(`${repo}:1.0.1`);
    expect(info.State.Running).toBe(false);
  });

  it('an update cut short gets the old container its name back, never removing one', async () => {
    const original = `berth-upd-cut-${randomBytes(3).toString('hex')}`;
    const aside = run(readRig().images.busybox);
    made.push(original);
    cli('rename', aside, `${original}-berth-old-1700000000000`);
    made.push(`${original}-berth-old-1700000000000`);
    await t.app.services.updates.recoverInterrupted(host.id);
    expect(cli('ps', '-a', '--filter', `name=${original}`, '--format', '{{.Names}}')).toBe(
      original,
    );
  });

  it('a block policy refuses; a warn policy asks first', async () => {
    const c = await containerOf(run(`${repo}:1.0.0`));
    await mode(c, 'patch');
    await api.put(`${base(c)}/update-policy?policy=block`);
    const blocked = await api.post<ExecuteUpdateResponse>(`${base(c)}/execute-update?force=true`);
    expect(blocked.body).toMatchObject({ status: 'blocked', message: 'Update blocked by policy' });
    await api.put(`${base(c)}/update-policy?policy=warn`);
    const warned = await api.post<ExecuteUpdateResponse>(`${base(c)}/execute-update`);
    expect(warned.body).toMatchObject({ status: 'requires_confirmation', validation: 'warn' });
    const status = (await api.get<UpdateStatus>(`${base(c)}/update-status`)).body;
    expect(status.validation_info?.result).toBe('warn');
    await api.put(`${base(c)}/update-policy`);
    expect((await api.get<UpdateStatus>(`${base(c)}/update-status`)).body.update_policy).toBeNull();
  });

  it('auto-update runs at the scheduled time, one container per host, never a warn one', async () => {
    const auto = await containerOf(run(`${repo}:1.0.0`));
    const warned = await containerOf(run(`${repo}:1.0.0`));
    for (const c of [auto, warned]) {
      await api.put(`${base(c)}/auto-update-config`, {
        auto_update_enabled: true,
        floating_tag_mode: 'patch',
      });
    }
    await api.put(`${base(warned)}/update-policy?policy=warn`);
    await api.post(`${base(warned)}/check-update`);
    // A minute ahead on the user's clock (offset +90 minutes from UTC).
    const offset = 90;
    const at = new Date(
      Date.now() + offset * 60_000 + (new Date().getSeconds() > 45 ? 120_000 : 60_000),
    );
    const hhmm = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
    await api.put('/settings', { timezone_offset: offset, update_check_time: hhmm });
    const next = t.app.services.updates.nextRun ?? 0;
    expect(next).toBeGreaterThan(Date.now());
    expect(next - Date.now()).toBeLessThan(150_000);
    await waitFor(
      'auto-update applied',
      () => {
        const image = (JSON.parse(cli('inspect', auto.name)) as { Config: { Image: string } }[])[0]
          ?.Config.Image;
        return image === `${repo}:1.0.1` ? true : undefined;
      },
      180_000,
      2000,
    );
    const warnedImage = (
      JSON.parse(cli('inspect', warned.name)) as { Config: { Image: string } }[]
    )[0]?.Config.Image;
    expect(warnedImage).toBe(`${repo}:1.0.0`);
    // update_available was recorded once for the version, though checked twice.
    const events = (
      await api.get<{ events: { event_type: string }[] }>(
        `/events?event_type=update_available&container_name=${warned.name}&hours=1`,
      )
    ).body.events;
    expect(events.length).toBe(1);
  }, 240_000);
});
