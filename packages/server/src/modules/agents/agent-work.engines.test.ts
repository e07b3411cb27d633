import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probe } from '@berth/agent/http-probe';
import type {
  AlertListResponse,
  AlertRule,
  Container,
  DiskAvailability,
  EnrollmentTokenResponse,
  HealthCheck,
  HealthCheckTestResponse,
  Host,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAgent,
  exitedEarly,
  spawnAgent,
  type AgentProcess,
} from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// Decision 023: an agent host's HTTP checks, container stats and disk figure come from its
// agent. The agent runs in a network namespace of its own, joined to Berth by a veth pair only,
// and the check's target listens on that namespace's loopback: reachable from the agent's
// side, never from Berth's process.

const hex = randomBytes(3).toString('hex');
const ns = `berth-hc-${hex}`;
const [vethHost, vethNs] = [`bhh${hex}`, `bhn${hex}`];
const subnet = `10.249.${randomInt(1, 250)}`;
const [hostIp, nsIp] = [`${subnet}.1`, `${subnet}.2`];
const targetPort = randomInt(20_000, 30_000);
const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
const plain = rigEngine('plain');

describe('work next to the engine runs on the agent: health checks, container stats, disk', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let agent: AgentProcess | undefined;
  let target: ChildProcess | undefined;
  let host: Host;
  let containerId: string;
  const marker = `berth-hc-agent-${hex}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-hc-'));
  const www = mkdtempSync(join(tmpdir(), 'berth-agent-www-'));

  beforeAll(async () => {
    buildAgent();
    ip('netns', 'add', ns);
    ip('link', 'add', vethHost, 'type', 'veth', 'peer', 'name', vethNs);
    ip('link', 'set', vethNs, 'netns', ns);
    ip('addr', 'add', `${hostIp}/30`, 'dev', vethHost);
    ip('link', 'set', vethHost, 'up');
    ip('-n', ns, 'addr', 'add', `${nsIp}/30`, 'dev', vethNs);
    ip('-n', ns, 'link', 'set', vethNs, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    writeFileSync(join(www, 'health'), 'ok\n');
    target = spawn(
      'ip',
      ['netns', 'exec', ns, 'busybox', 'httpd', '-f', '-p', `127.0.0.1:${targetPort}`, '-h', www],
      { stdio: 'ignore' },
    );

    t = await buildTestApp();
    await t.app.listen({ host: hostIp, port: 0 });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    api = apiClient(t.app, await signedInCookie(t.app));
    dockerCli(plain, ['run', '-d', '--name', marker, readRig().images.busybox, 'sleep', '600']);
    const { token } = (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body;
    const running = spawnAgent(
      {
        BERTH_URL: `http://${hostIp}:${address.port}`,
        BERTH_AGENT_TOKEN: token,
        BERTH_AGENT_DATA_DIR: dataDir,
        BERTH_AGENT_DOCKER_SOCKET: plain.socket.replace(/^unix:\/\//, ''),
        BERTH_AGENT_NAME: marker,
        // Plain HTTP beyond loopback: this test's veth pair stands for the network.
        BERTH_AGENT_INSECURE: '1',
      },
      // nsenter changes the network only (ip netns exec also remounts /sys, hiding the cgroups).
      ['nsenter', `--net=/var/run/netns/${ns}`, '--'],
    );
    agent = running;
    const listed = async () => {
      const hosts = (await api.get<Host[]>('/hosts')).body;
      const h = hosts.find((x) => x.name === marker && x.status === 'online');
      if (h === undefined) return undefined;
      const containers = (await api.get<Container[]>(`/containers?host_id=${h.id}`)).body;
      const c = containers.find((x) => x.name === marker && x.state === 'running');
      return c === undefined ? undefined : { h, c };
    };
    const found = await Promise.race([
      waitFor('the agent host', listed, 30_000),
      exitedEarly(running),
    ]);
    host = found.h;
    containerId = found.c.id;
  }, 180_000);

  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    target?.kill('SIGKILL');
    dockerCli(plain, ['rm', '-f', marker]);
    await t.close();
    try {
      ip('link', 'del', vethHost);
    } catch {
      // gone with the namespace
    }
    ip('netns', 'del', ns);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(www, { recursive: true, force: true });
  });

  const url = `http://127.0.0.1:${targetPort}/health`;

  it('reaches a target only the agent host can reach: tested now, and on schedule', async () => {
    // From Berth's own process the address is some other machine's loopback.
    const here = await probe({
      url,
      method: 'GET',
      expectedStatusCodes: '200',
      timeoutMs: 2000,
      followRedirects: true,
      verifySsl: true,
      headers: {},
    });
    expect(here.healthy).toBe(false);

    const path = `/containers/${host.id}/${containerId}/http-health-check`;
    const tested = await api.post<HealthCheckTestResponse>(`${path}/test`, { url });
    expect(tested.status).toBe(200);
    expect(tested.body.test_result).toMatchObject({
      is_healthy: true,
      message: 'Received status 200 (matches expected)',
      status_code: 200,
      resolved_url: url,
    });
    const missing = await api.post<HealthCheckTestResponse>(`${path}/test`, {
      url: `http://127.0.0.1:${targetPort}/missing`,
    });
    expect(missing.body.test_result).toMatchObject({
      is_healthy: false,
      message: 'Received status 404 (expected: 200)',
    });

    // The scheduled check: its result moves the status in Berth like every other check (first run 1 s after the save).
    const saved = await api.put<HealthCheck>(path, {
      enabled: true,
      url,
      check_interval_seconds: 10,
    });
    expect(saved.status).toBe(200);
    const healthy = await waitFor(
      'the check healthy',
      async () => {
        const c = (await api.get<HealthCheck>(path)).body;
        return c.current_status === 'healthy' ? c : undefined;
      },
      15_000,
    );
    expect(healthy.last_error_message).toBeNull();
    expect(healthy.consecutive_successes).toBeGreaterThanOrEqual(1);
  });

  it("reads the agent host's container stats from its cgroup files, on the agent", async () => {
    const { monitor } = t.app.services;
    monitor.demandStats('agent-test', true);
    try {
      const stats = await waitFor(
        'two stats passes through the agent',
        () => {
          if (monitor.statsSourceOf(host.id, containerId) !== 'agent') return undefined;
          const s = monitor.containerStats(host.id, containerId);
          return s !== undefined && s.memory_usage > 0 ? s : undefined;
        },
        20_000,
      );
      expect(stats.memory_limit).toBeGreaterThan(0);
      expect(stats.cpu_percent).toBeGreaterThanOrEqual(0);
    } finally {
      monitor.demandStats('agent-test', false);
    }
  });

  it(
    "measures the agent host's engine data filesystem for disk alerts",
    { timeout: 60_000 },
    async () => {
      const availability = (await api.get<DiskAvailability>('/alerts/disk-availability')).body;
      expect(availability.hosts.find((h) => h.host_id === host.id)).toMatchObject({
        available: true,
        reason: null,
      });
      const disk = await t.app.services.monitor.engineDisk(host.id);
      const root = dockerCli(plain, ['info', '-f', '{{.DockerRootDir}}']);
      const fs = statfsSync(root);
      const used = fs.blocks - fs.bfree;
      const here = Math.round((used / (used + fs.bavail)) * 1000) / 10;
      expect(disk).toMatchObject({ path: root });
      expect(Math.abs(('percent' in disk ? disk.percent : -100) - here)).toBeLessThan(2);

      // A disk_low rule on the agent host opens its alert from the agent's figure.
      const rule = (
        await api.post<AlertRule>('/alerts/rules', {
          name: `disk-${hex}`,
          severity: 'warning',
          scope: 'host',
          kind: 'disk_low',
          threshold: 0.1,
          duration_seconds: 1,
          occurrences: 1,
          host_selector_json: { include: [host.id] },
        })
      ).body;
      expect(rule.unavailable_hosts).toEqual([]);
      const alerts = await waitFor(
        'the disk alert',
        async () => {
          const open = (await api.get<AlertListResponse>(`/alerts/?rule_id=${rule.id}`)).body
            .alerts;
          return open.length > 0 ? open : undefined;
        },
        40_000,
      );
      expect(alerts[0]).toMatchObject({ scope_id: host.id, kind: 'disk_low', state: 'open' });
      expect(alerts[0]?.message).toContain(`Disk holding ${root} is `);
    },
  );
});
