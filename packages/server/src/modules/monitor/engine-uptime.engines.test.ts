import { readFileSync } from 'node:fs';
import type { Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { rigEngine } from '../../test/rig.js';
import { addRigHosts } from '../../test/rig-hosts.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import type { EngineContainer } from './engine-container.js';
import { localDaemonStart, uptimeFromContainers } from './engine-uptime.js';

const machineUptimeMs = () => Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
const pidIn = (file: string) => Number(readFileSync(file, 'utf8').trim());

describe('engine start from the kernel', () => {
  it('finds the local engine behind its unix socket, started after boot and before now', async () => {
    const found = await localDaemonStart(rigEngine('local').url);
    if (found === null) throw new Error('local engine not found');
    const uptime = Date.now() - found.at.getTime();
    expect(uptime).toBeGreaterThan(0);
    expect(uptime).toBeLessThan(machineUptimeMs() + 1000);
    expect(found.pid).toBe(pidIn('/var/run/docker.pid'));
  });

  it('finds a loopback TCP engine by the owner of its listening port', async () => {
    for (const name of ['plain', 'tls'] as const) {
      const engine = rigEngine(name);
      const found = await localDaemonStart(engine.url);
      expect(found?.pid).toBe(pidIn(engine.pidFile ?? ''));
    }
  });

  it('answers null for an engine elsewhere or a socket nobody listens on', async () => {
    expect(await localDaemonStart('tcp://192.0.2.1:2375')).toBeNull();
    expect(await localDaemonStart('unix:///tmp/no-such-engine.sock')).toBeNull();
  });
});

describe('uptime of an engine elsewhere', () => {
  const c = (state: string, startedAt: string | null) =>
    ({ state, startedAt }) as unknown as EngineContainer;

  it('is at least the oldest running container', () => {
    const u = uptimeFromContainers([
      c('running', '2026-01-02T00:00:00Z'),
      c('exited', '2025-01-01T00:00:00Z'),
      c('running', '2026-01-01T00:00:00Z'),
    ]);
    expect(u).toMatchObject({ started_at: '2026-01-01T00:00:00Z', source: 'oldest_container' });
    expect(u.note).toMatch(/^At least/);
  });

  it('is unknown, with the reason, when nothing runs', () => {
    const u = uptimeFromContainers([c('exited', '2025-01-01T00:00:00Z')]);
    expect(u.started_at).toBeNull();
    expect(u.note).toMatch(/does not report its start time/);
  });
});

describe('hosts answer their uptime', () => {
  let t: TestApp;
  let hosts: Host[];
  beforeAll(async () => {
    t = await buildTestApp();
    const api = apiClient(t.app, await signedInCookie(t.app));
    await addRigHosts(api);
    hosts = (await api.get<Host[]>('/hosts')).body;
  });
  afterAll(() => t.close());

  it('from the engine process for every rig engine (all run on this machine)', () => {
    for (const h of hosts) {
      expect(h.uptime_source, h.name).toBe('daemon_process');
      const uptime = Date.now() - Date.parse(h.daemon_started_at ?? '');
      expect(uptime).toBeGreaterThan(0);
      expect(uptime).toBeLessThan(machineUptimeMs() + 1000);
      expect(h.uptime_note).toMatch(/dockerd, pid \d+/);
    }
  });
});
