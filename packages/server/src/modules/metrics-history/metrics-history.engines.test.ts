import { randomBytes } from 'node:crypto';
import type { Host, MetricsResponse } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

const engine = rigEngine('plain');
const name = `berth-history-${randomBytes(3).toString('hex')}`;
let t: TestApp;

beforeAll(() => {
  runBusybox(engine, name, {
    command: 'while :; do i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 1; done',
    options: ['--label', 'berth-test=1'],
  });
});
afterAll(async () => {
  await t.close();
  dockerCli(engine, ['rm', '-f', name]);
});

describe('metrics history on a real engine', () => {
  it("has a running container's samples in the history API after a few seconds", async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = await signedInCookie(t.app);
    const api = apiClient(t.app, cookie);
    // A watching browser puts the monitor on its full 2 s cadence.
    const live = await openLiveClient(t.app, cookie);
    const host = (await api.post<Host>('/hosts', { name: 'history', url: engine.url })).body;
    const from = new Date(Date.now() - 60_000).toISOString();
    // A 10 s point is written once its bucket has ended: within about 12 s of the first pass.
    const answer = await waitFor(
      'a point with memory in the container history',
      async () => {
        const res = await api.get<MetricsResponse>(
          `/hosts/${host.id}/containers/${name}/metrics?from=${from}`,
        );
        return res.status === 200 && res.body.memory_bytes.mean.some((m) => (m ?? 0) > 0)
          ? res.body
          : undefined;
      },
      30_000,
      500,
    );
    expect(answer).toMatchObject({ tier: '10s', step: 10, container_name: name });
    expect(answer.t[0]).toBeGreaterThanOrEqual(Math.floor(Date.parse(from) / 1000) - 10);
    // The host's series has the same points, with its status as health.
    const hostAnswer = await api.get<MetricsResponse>(`/hosts/${host.id}/metrics?from=${from}`);
    expect(hostAnswer.status).toBe(200);
    expect(hostAnswer.body.health).toContain('online');
    expect(hostAnswer.body.cpu_percent.mean.length).toBeGreaterThan(0);
    // By its id as well as by its name.
    const id = dockerCli(engine, ['inspect', '-f', '{{.Id}}', name]).slice(0, 12);
    const byId = await api.get<MetricsResponse>(`/hosts/${host.id}/containers/${id}/metrics`);
    expect(byId.body.container_name).toBe(name);
    live.close();
  }, 60_000);
});
