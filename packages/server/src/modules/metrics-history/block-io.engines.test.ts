import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EnrollmentTokenResponse, Host, MetricsResponse } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAgent,
  exitedEarly,
  spawnAgent,
  type AgentProcess,
} from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

const engine = rigEngine('plain');
const hex = randomBytes(3).toString('hex');
const name = `berth-history-dd-${hex}`;
const agentDir = mkdtempSync(join(tmpdir(), 'berth-history-agent-'));
let t: TestApp | undefined;
let agent: AgentProcess | undefined;

/** The whole disk under the engine's data root (`/dev/vda`), where the container's layer is. */
function dataDisk(): string {
  const root = dockerCli(engine, ['info', '-f', '{{.DockerRootDir}}']).trim();
  const dev = statSync(root).dev;
  // Linux's dev_t: major in bits 8–19, minor in 0–7 and 20–31.
  const major = (dev >> 8) & 0xfff;
  const minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
  const sys = `/sys/dev/block/${major}:${minor}`;
  const disk = existsSync(`${sys}/partition`) ? `${sys}/..` : sys;
  const devName = /DEVNAME=(\S+)/.exec(readFileSync(`${disk}/uevent`, 'utf8'))?.[1];
  if (devName === undefined) throw new Error(`no block device for ${root}`);
  return `/dev/${devName}`;
}

beforeAll(() => {
  runBusybox(engine, name, {
    // 4 MB written and flushed a second: the flush makes it block I/O, not page cache.
    command:
      'while :; do dd if=/dev/zero of=/tmp/f bs=1M count=4 conv=fsync 2>/dev/null; sleep 1; done',
    // cgroup v1 on recent kernels counts a container's block bytes only on a device with a
    // throttle rule; one far above the disk's speed changes nothing else (v2 counts anyway).
    options: ['--label', 'berth-test=1', '--device-write-bps', `${dataDisk()}:1gb`],
  });
});
afterAll(async () => {
  agent?.child.kill('SIGKILL');
  await t?.close();
  dockerCli(engine, ['rm', '-f', name]);
  rmSync(agentDir, { recursive: true, force: true });
});

/** A fresh Berth listening on loopback, signed in, a browser watching (the 2 s cadence). */
async function berth(env: Record<string, string> = {}) {
  await t?.close();
  t = await buildTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signedInCookie(t.app);
  const live = await openLiveClient(t.app, cookie);
  return { app: t, api: apiClient(t.app, cookie), live };
}

/** Waits for a 10 s point of the container with block writes; answers its history. */
function blockWrites(api: ReturnType<typeof apiClient>, hostId: string, label: string) {
  const from = new Date(Date.now() - 60_000).toISOString();
  return waitFor(
    `a block write rate in the container's history (${label})`,
    async () => {
      const res = await api.get<MetricsResponse>(
        `/hosts/${hostId}/containers/${name}/metrics?from=${from}`,
      );
      return res.status === 200 && res.body.block_write_bytes_per_sec.mean.some((w) => (w ?? 0) > 0)
        ? res.body
        : undefined;
    },
    45_000,
    1000,
  );
}

function expectWrites(answer: MetricsResponse): void {
  const writes = answer.block_write_bytes_per_sec.mean.filter((w) => w !== null);
  // About 4 MB a second; a bucket may hold one dd or two.
  expect(Math.max(...writes)).toBeGreaterThan(500_000);
  for (const w of writes) expect(w).toBeGreaterThanOrEqual(0);
  // Reads are measured too (zero or more), not left empty.
  expect(answer.block_read_bytes_per_sec.mean.some((r) => r !== null)).toBe(true);
}

describe('block I/O in metrics history on a real engine', () => {
  for (const source of ['files', 'api'] as const)
    it(`shows a container's dd writes as a block write rate (stats from ${source})`, async () => {
      const { app, api, live } = await berth({ BERTH_STATS_SOURCE: source });
      try {
        const host = (await api.post<Host>('/hosts', { name: `dd-${source}`, url: engine.url }))
          .body;
        expectWrites(await blockWrites(api, host.id, source));
        const id = dockerCli(engine, ['inspect', '-f', '{{.Id}}', name]).slice(0, 12);
        expect(app.app.services.monitor.statsSourceOf(host.id, id)).toBe(source);
        // The host's series sums its containers' rates.
        const hostAnswer = await api.get<MetricsResponse>(`/hosts/${host.id}/metrics`);
        expect(hostAnswer.body.block_write_bytes_per_sec.mean.some((w) => (w ?? 0) > 0)).toBe(true);
      } finally {
        live.close();
      }
    }, 90_000);

  it("shows them when the host's agent reads the cgroup files", async () => {
    buildAgent();
    const { app, api, live } = await berth();
    try {
      const address = app.app.server.address();
      if (address === null || typeof address === 'string') throw new Error('not listening');
      const { token } = (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body;
      const agentName = `berth-history-agent-${hex}`;
      const running = spawnAgent({
        BERTH_URL: `http://127.0.0.1:${address.port}`,
        BERTH_AGENT_TOKEN: token,
        BERTH_AGENT_DATA_DIR: agentDir,
        BERTH_AGENT_DOCKER_SOCKET: engine.socket.replace(/^unix:\/\//, ''),
        BERTH_AGENT_NAME: agentName,
      });
      agent = running;
      const host = await Promise.race([
        waitFor(
          'the agent host online',
          async () =>
            (await api.get<Host[]>('/hosts')).body.find(
              (h) => h.name === agentName && h.status === 'online',
            ),
          30_000,
        ),
        exitedEarly(running),
      ]);
      expectWrites(await blockWrites(api, host.id, 'agent'));
      const id = dockerCli(engine, ['inspect', '-f', '{{.Id}}', name]).slice(0, 12);
      expect(app.app.services.monitor.statsSourceOf(host.id, id)).toBe('agent');
    } finally {
      live.close();
    }
  }, 180_000);
});
