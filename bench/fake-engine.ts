// A synthetic Docker engine for benchmarks: answers the Engine API calls Berth's monitor
// makes (ping, version, info, container list and inspect, one-shot stats, the event stream)
// for a fixed set of running containers whose counters grow steadily.
import { rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { ListenOptions } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

interface FakeContainer {
  id: string;
  name: string;
  running: boolean;
  /** What the engine reports as the init PID: fake-host-files.ts has files for it. */
  pid: number;
}

/** The id of container `i` of the fake engine labelled `label`. */
export const fakeContainerId = (label: string, i: number) =>
  `${label}${String(i).padStart(4, '0')}`.padEnd(64, 'a').slice(0, 64);

/** The init PID a fake engine started `withPids` reports for container `i` (0 otherwise). */
export const fakeContainerPid = (i: number) => 100_000 + i;

/**
 * A fake engine on `port`; with `socketPath`, the same engine (one set of containers) also
 * answers on that unix socket, where an agent forwards to it (bench/agents). The first
 * `running` containers run (all unless told); the others have exited.
 */
export async function startFakeEngine(
  port: number,
  containers: number,
  label: string,
  socketPath?: string,
  running = containers,
  withPids = false,
): Promise<Server> {
  const list: FakeContainer[] = Array.from({ length: containers }, (_, i) => ({
    id: fakeContainerId(label, i),
    name: `${label}-svc-${i}`,
    running: i < running,
    pid: withPids && i < running ? fakeContainerPid(i) : 0,
  }));
  const byId = new Map(list.map((c) => [c.id, c]));
  const started = Date.now();

  const summary = (c: FakeContainer) => ({
    Id: c.id,
    Names: [`/${c.name}`],
    Image: 'synthetic/app:1',
    State: c.running ? 'running' : 'exited',
    Status: c.running ? 'Up 2 hours' : 'Exited (0) 2 hours ago',
    Created: Math.floor(started / 1000) - 7200,
    Labels: {},
    Ports: [],
  });

  const inspect = (c: FakeContainer) => ({
    Id: c.id,
    Name: `/${c.name}`,
    Created: new Date(started - 7_200_000).toISOString(),
    State: {
      Status: c.running ? 'running' : 'exited',
      Running: c.running,
      Pid: c.pid,
      ExitCode: 0,
      StartedAt: new Date(started - 7_000_000).toISOString(),
      FinishedAt: '0001-01-01T00:00:00Z',
    },
    Config: { Image: 'synthetic/app:1', Env: [], Labels: {} },
    HostConfig: { RestartPolicy: { Name: 'unless-stopped' } },
    Mounts: [],
    NetworkSettings: { Ports: {} },
  });

  const stats = (c: FakeContainer) => {
    const t = Date.now() - started;
    const load = 0.05 + 0.3 * Math.abs(Math.sin(t / 20_000 + c.id.charCodeAt(3)));
    return {
      read: new Date().toISOString(),
      cpu_stats: {
        cpu_usage: { total_usage: Math.round(t * 1e6 * load) },
        system_cpu_usage: t * 1e6 * 8,
        online_cpus: 8,
      },
      memory_stats: {
        usage: 64 * 1024 ** 2 + (t % 10_000) * 1000,
        limit: 16 * 1024 ** 3,
        stats: {},
      },
      networks: {
        eth0: { rx_bytes: Math.round(t * 50 * load), tx_bytes: Math.round(t * 20 * load) },
      },
    };
  };

  /** The answer to one call, or undefined for a 404. */
  const respond = (path: string): unknown => {
    if (path === '/_ping') return 'OK';
    if (path === '/version')
      return { Version: '27.0.0', ApiVersion: '1.46', Os: 'linux', Arch: 'amd64' };
    if (path === '/info')
      return {
        NCPU: 8,
        MemTotal: 16 * 1024 ** 3,
        OperatingSystem: 'Synthetic Linux',
        KernelVersion: '6.1.0',
        SystemTime: new Date().toISOString(),
      };
    if (path === '/containers/json') return list.map(summary);
    const match = /^\/containers\/([^/]+)\/(json|stats)$/.exec(path);
    const c = match?.[1] === undefined ? undefined : byId.get(match[1]);
    if (c === undefined) return undefined;
    return match?.[2] === 'json' ? inspect(c) : stats(c);
  };

  const handler: RequestListener = (req, res) => {
    const path = (req.url ?? '/').replace(/^\/v1\.\d+/, '').split('?')[0] ?? '/';
    if (path === '/events') {
      // Held open: nothing happens on a synthetic engine. A replay up to `until` (Berth's
      // reconnect) is finite, as the engine's own: held open, it timed out every reconnect.
      res.writeHead(200, { 'content-type': 'application/json' });
      if (/[?&]until=/.test(req.url ?? '')) res.end();
      else res.flushHeaders();
      return;
    }
    const answer = respond(path);
    res.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(
      typeof answer === 'string'
        ? answer
        : JSON.stringify(answer ?? { message: 'No such container' }),
    );
  };
  const listen = (options: ListenOptions) =>
    new Promise<Server>((resolve) => {
      // dockerd (Go's http server, no idle timeout) keeps an idle kept-alive connection open;
      // Node's default closes it after 5 s, which raced with reuse of pooled connections
      // (through an agent's tunnel the close arrives later) and took hosts offline.
      const server = createServer(handler);
      server.keepAliveTimeout = 0;
      server.listen(options, () => resolve(server));
    });
  if (socketPath !== undefined) {
    rmSync(socketPath, { force: true });
    await listen({ path: socketPath });
  }
  return listen({ port, host: '127.0.0.1' });
}

/** The unix socket of fake engine `i` started with a `socketDir`. */
export const fakeEngineSocket = (socketDir: string, i: number) =>
  join(socketDir, `engine-${i}.sock`);

/**
 * `count` engines on consecutive ports, in a worker thread of their own. Fifty engines
 * answering Berth's polls share the bench's event loop otherwise, and hold up what else runs
 * on it: Playwright, and the proxy that serves a web build (bench/dashboard). GET
 * /api/containers through the proxy, one run each: p95 203 ms with the engines on the bench's
 * thread, 112 ms with them in a worker, 36 ms straight to Berth. With `socketDir`, engine i
 * also answers on fakeEngineSocket(socketDir, i); `withPids` as startFakeEngine.
 */
export async function startFakeEnginesApart(
  count: number,
  firstPort: number,
  perEngine: number,
  prefix: string,
  socketDir?: string,
  running?: number,
  withPids?: boolean,
): Promise<{ close: () => Promise<void> }> {
  const worker = new Worker(new URL('./fake-engines-worker.ts', import.meta.url), {
    workerData: { count, firstPort, perEngine, prefix, socketDir, running, withPids },
  });
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { close: () => worker.terminate().then(() => undefined) };
}
