import { randomBytes } from 'node:crypto';
import type { CreatedApiKey, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { listenOnLoopback } from '../../test/listen.js';
import {
  promtoolCheck,
  startPrometheus,
  type PrometheusServer,
} from '../../test/prometheus-server.js';
import { dockerCli, readRig, rigEngine, runBusybox, type RigEngine } from '../../test/rig.js';
import { addRigHosts } from '../../test/rig-hosts.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// A real Prometheus scrapes a Berth that watches the rig's three engines, and its PromQL
// answers agree with what each engine says of itself.
describe('Prometheus scraping Berth on the rig', () => {
  let t: TestApp;
  let key: string;
  let base: string;
  let prometheus: PrometheusServer | null = null;
  let hosts: Record<RigEngine['name'], Host>;
  const created: [RigEngine, string][] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    const api = apiClient(t.app, await signedInCookie(t.app));
    hosts = await addRigHosts(api);
    key = (await api.post<CreatedApiKey>('/api-keys', { name: 'prometheus', scope: 'read' })).body
      .key;
    await api.put('/integrations/prometheus', { enabled: true, allowed_addresses: [] });
    // A running container of this test's own on each engine, so no count is trivially zero.
    for (const name of ['plain', 'local', 'tls'] as const) {
      const engine = rigEngine(name);
      const cname = `berth-metrics-${randomBytes(4).toString('hex')}`;
      runBusybox(engine, cname, {
        command: 'sleep 600',
        options: [
          '--init',
          '--label',
          'berth-test=1',
          '--label',
          'com.docker.compose.project=metrics-test',
        ],
      });
      created.push([engine, cname]);
    }
    base = await listenOnLoopback(t.app);
    prometheus = await startPrometheus(base.replace('http://', ''), key);
  }, 120_000);

  afterAll(async () => {
    await prometheus?.stop();
    for (const [engine, name] of created) dockerCli(engine, ['rm', '-f', name]);
    await t.close();
  });

  const query = (promql: string) => {
    if (prometheus === null) throw new Error('prometheus is not running');
    return prometheus.query(promql);
  };

  const scrape = async () => {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it("answers PromQL with each engine's own count of running containers", async () => {
    for (const name of ['local', 'plain', 'tls'] as const) {
      // The rig is shared: other tests start and stop containers, so both sides are read again
      // until one scrape and the engine agree.
      await waitFor(
        `running containers of rig-${name} in Prometheus`,
        async () => {
          const promql = `sum(berth_container_up{host="rig-${name}"}) or on() vector(0)`;
          const [result] = await query(promql);
          const [byHost] = await query(`berth_host_containers{host="rig-${name}",state="running"}`);
          const engineSays = Number(
            dockerCli(rigEngine(name), ['info', '--format', '{{.ContainersRunning}}']),
          );
          return engineSays > 0 && result?.value === engineSays && byHost?.value === engineSays;
        },
        60_000,
        500,
      );
    }
    const [up] = await query('up{job="berth"}');
    expect(up?.value).toBe(1);
    const hostUp = await query('berth_host_up');
    expect(hostUp.map((r) => [r.metric.host, r.value]).sort()).toEqual([
      ['rig-local', 1],
      ['rig-plain', 1],
      ['rig-tls', 1],
    ]);
    const connection = await query(`berth_host_info{host="${hosts.tls.name}"}`);
    expect(connection[0]?.metric.connection).toBe('tls');
  }, 200_000);

  it("labels this test's container with its compose project and image", async () => {
    const name = created[0]?.[1] ?? '';
    const result = await waitFor(
      'the test container in Prometheus',
      async () => {
        const [r] = await query(`berth_container_up{container="${name}"}`);
        return r;
      },
      30_000,
      500,
    );
    expect(result.metric).toMatchObject({
      host: 'rig-plain',
      compose_project: 'metrics-test',
      image: readRig().images.busybox,
    });
    expect(result.value).toBe(1);
  }, 60_000);

  it('passes promtool check metrics', async () => {
    const text = await scrape();
    expect(text).toContain('berth_container_memory_usage_bytes{');
    expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
  });

  it('drops a removed container from the next scrape', async () => {
    const first = created.shift();
    if (first === undefined) throw new Error('no test container');
    const [engine, name] = first;
    dockerCli(engine, ['rm', '-f', name]);
    await waitFor(
      'the container gone from /metrics',
      async () => !(await scrape()).includes(`container="${name}"`),
    );
  });
});
