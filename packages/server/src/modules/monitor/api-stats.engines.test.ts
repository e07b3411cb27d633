import { randomBytes } from 'node:crypto';
import type { Container, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, endpointOf, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

/**
 * Engines whose containers Berth cannot see as processes are read through the Engine API.
 * BERTH_STATS_SOURCE=api forces that path here, against the mTLS engine.
 */
const engine = rigEngine('tls');
const name = `berth-api-${randomBytes(3).toString('hex')}`;
let t: TestApp;

beforeAll(() => {
  dockerCli(engine, [
    'run',
    '-d',
    '--init',
    '--label',
    'berth-test=1',
    '--name',
    name,
    readRig().images.busybox,
    'sh',
    '-c',
    'yes > /dev/null',
  ]);
});
afterAll(async () => {
  await t.close();
  dockerCli(engine, ['rm', '-f', name]);
});

describe('stats through the Engine API', () => {
  it('reads a busy container above 50 percent CPU, with its memory', async () => {
    t = await buildTestApp({ BERTH_STATS_SOURCE: 'api' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = await signedInCookie(t.app);
    const api = apiClient(t.app, cookie);
    // A watching browser puts the monitor on its full 2 s cadence.
    const live = await openLiveClient(t.app, cookie);
    const tls = endpointOf(engine).tls;
    const host = (
      await api.post<Host>('/hosts', {
        name: 'api-read',
        url: engine.url,
        tls_ca: tls?.ca,
        tls_cert: tls?.cert,
        tls_key: tls?.key,
      })
    ).body;
    const busy = await waitFor(
      'cpu above 50 via the API',
      async () => {
        const c = (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.find(
          (x) => x.name === name,
        );
        return c !== undefined && (c.cpu_percent ?? 0) > 50 ? c : undefined;
      },
      20_000,
      250,
    );
    expect(busy.memory_usage).toBeGreaterThan(0);
    expect(t.app.services.monitor.statsSourceOf(host.id, busy.id)).toBe('api');
    live.close();
  }, 40_000);
});
