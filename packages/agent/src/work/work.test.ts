import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_API_PATHS } from '@berth/contracts/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRequestError } from '../agent-api.js';
import type { AgentConfig } from '../config.js';
import { cpuPercent, hostMetricsReader, parseMeminfo, parseProcStat } from './host-metrics.js';
import { agentHandlers } from './index.js';

const config: AgentConfig = {
  connectUrl: 'ws://127.0.0.1:1/api/agents/connect',
  enrollUrl: 'http://127.0.0.1:1/api/agents/enroll',
  socketPath: '/nonexistent/docker.sock',
  dataDir: '/nonexistent',
  token: null,
  name: 'test',
  hostProc: '/proc',
  diskPath: tmpdir(),
};
const handlers = agentHandlers(config);
const probeHandler = handlers.get(`POST ${AGENT_API_PATHS.httpProbe}`);
const good = {
  url: 'http://127.0.0.1:1/',
  method: 'GET',
  expectedStatusCodes: '200',
  timeoutMs: 2000,
  followRedirects: true,
  verifySsl: true,
  headers: {},
};

/** The handler's refusal: its status and its words. */
async function refusal(body: unknown): Promise<[number, string]> {
  try {
    await probeHandler?.(body);
  } catch (err) {
    if (err instanceof AgentRequestError) return [err.status, err.message];
    throw err;
  }
  throw new Error('the request was accepted');
}

describe('POST /v1/http-probe', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.statusCode = req.url === '/health' ? 200 : 404;
      res.end(String(req.headers['x-probe'] ?? ''));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  it('runs one probe with the same answer Berth gives', async () => {
    expect(
      await probeHandler?.({
        ...good,
        url: `http://127.0.0.1:${port}/health`,
        headers: { 'X-Probe': 'yes' },
      }),
    ).toMatchObject({
      healthy: true,
      statusCode: 200,
      message: 'Received status 200 (matches expected)',
    });
    expect(await probeHandler?.({ ...good, url: `http://127.0.0.1:${port}/nope` })).toMatchObject({
      healthy: false,
      message: 'Received status 404 (expected: 200)',
    });
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const big = 'x'.repeat(4001);
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`x-h${i}`, 'v']));
    const cases: [unknown, string][] = [
      [null, 'body: '],
      [{ ...good, url: 'ftp://example.com/' }, 'url: Must be an http:// or https:// address'],
      [{ ...good, url: 'not a url' }, 'url: Must be an http:// or https:// address'],
      [{ ...good, url: `http://a/${'p'.repeat(2048)}` }, 'url: At most 2048 characters'],
      [{ ...good, method: 'DELETE' }, 'method: Method must be GET, POST or HEAD'],
      [{ ...good, expectedStatusCodes: '2xx' }, 'expectedStatusCodes: '],
      [{ ...good, timeoutMs: 10_000_000 }, 'timeoutMs: '],
      [{ ...good, verifySsl: 'yes' }, 'verifySsl: '],
      [{ ...good, headers: { 'X-Big': big } }, 'headers.X-Big: A header value is at most 4000'],
      [{ ...good, headers: { 'X-Split': 'a\r\nb: c' } }, 'headers.X-Split: A header value has'],
      [{ ...good, headers: { 'bad name': 'v' } }, 'headers.bad name: '],
      [{ ...good, headers: many }, 'headers: At most 32 headers'],
      [{ ...good, extra: 1 }, 'body: '],
    ];
    for (const [body, start] of cases) {
      const [status, message] = await refusal(body);
      expect(status, message).toBe(400);
      expect(message.startsWith(start), `${message} (expected ${start}…)`).toBe(true);
    }
  });
});

describe('GET /v1/host-metrics', () => {
  const proc = mkdtempSync(join(tmpdir(), 'berth-proc-'));
  afterAll(() => rmSync(proc, { recursive: true, force: true }));

  it('parses /proc/stat and /proc/meminfo as top and free count them', () => {
    const stat =
      'cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 50 0 50 350 50 0 0 0 0 0\ncpu1 50 0 50 350 50 0 0 0 0 0\nintr 1\n';
    const { times, cpus } = parseProcStat(stat);
    expect(cpus).toBe(2);
    expect(times).toEqual({ busy: 200, total: 1000 });
    expect(cpuPercent(times, { busy: 250, total: 1100 })).toBe(50);
    expect(parseMeminfo('MemTotal:  1000 kB\nMemFree: 10 kB\nMemAvailable:  250 kB\n')).toEqual({
      mem_total_bytes: 1000 * 1024,
      mem_used_bytes: 750 * 1024,
    });
    expect(() => parseProcStat('intr 1\n')).toThrow('/proc/stat has no cpu line');
  });

  it('reads the host /proc it is given, CPU from the second read on, and the disk path', async () => {
    writeFileSync(
      join(proc, 'stat'),
      'cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 100 0 100 800 0 0 0 0 0 0\n',
    );
    writeFileSync(join(proc, 'meminfo'), 'MemTotal: 2048 kB\nMemAvailable: 1024 kB\n');
    const read = hostMetricsReader({ procDir: proc, socketPath: '/nonexistent', diskPath: proc });
    const first = await read();
    expect(first).toMatchObject({
      cpu_percent: null,
      cpus: 1,
      mem_total_bytes: 2048 * 1024,
      mem_used_bytes: 1024 * 1024,
      disk: { path: proc },
    });
    writeFileSync(join(proc, 'stat'), 'cpu  175 0 125 900 0 0 0 0 0 0\n');
    expect((await read()).cpu_percent).toBe(50);
    // No path setting and no engine to ask: the reason, not a guess.
    const noEngine = hostMetricsReader({
      procDir: '/proc',
      socketPath: '/nonexistent',
      diskPath: null,
    });
    const { disk, cpus } = await noEngine();
    expect(cpus).toBeGreaterThanOrEqual(1);
    expect(disk).toMatchObject({
      unavailable: expect.stringMatching(
        /^The engine's data filesystem cannot be read by the agent: .*; mount it read-only and set BERTH_AGENT_DISK_PATH$/,
      ),
    });
  });

  it('answers through the handler on the real /proc', async () => {
    const metrics = (await handlers.get(`GET ${AGENT_API_PATHS.hostMetrics}`)?.(null)) as {
      mem_total_bytes: number;
      disk: { total_bytes: number };
    };
    expect(metrics.mem_total_bytes).toBeGreaterThan(0);
    expect(metrics.disk.total_bytes).toBeGreaterThan(0);
  });
});

describe('POST /v1/container-stats', () => {
  const statsHandler = handlers.get(`POST ${AGENT_API_PATHS.containerStats}`);
  const id = 'a'.repeat(12);
  const fullId = 'a'.repeat(64);

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'containers: '],
      [{ containers: [{ id: 'x', fullId, pid: 1 }] }, 'containers.0.id: Must be a 12-character'],
      [{ containers: [{ id, fullId: '../../etc', pid: 1 }] }, 'containers.0.fullId: Must be a 64'],
      [{ containers: [{ id, fullId, pid: -1 }] }, 'containers.0.pid: '],
      [
        { containers: Array.from({ length: 2001 }, () => ({ id, fullId, pid: 1 })) },
        'containers: At most 2000',
      ],
    ];
    for (const [body, start] of cases) {
      try {
        await statsHandler?.(body);
        throw new Error('the request was accepted');
      } catch (err) {
        expect(err).toBeInstanceOf(AgentRequestError);
        const { status, message } = err as AgentRequestError;
        expect(status).toBe(400);
        expect(message.startsWith(start), `${message} (expected ${start}…)`).toBe(true);
      }
    }
  });

  it('leaves out a container whose files are not visible here (Berth asks the API for it)', async () => {
    // PID 1's cgroup does not name this container: never read as if it were.
    expect(await statsHandler?.({ containers: [{ id, fullId, pid: 1 }] })).toEqual({ samples: [] });
  });
});
