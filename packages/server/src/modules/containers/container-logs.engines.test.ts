import { randomBytes } from 'node:crypto';
import type { ContainerLogsResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';
import { parseLogBuffer } from './log-frames.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;
const engine = rigEngine('tls');
const made: string[] = [];

function run(args: string[]): string {
  const name = `berth-log-${randomBytes(4).toString('hex')}`;
  dockerCli(engine, ['run', '-d', '--name', name, ...args]);
  made.push(name);
  return name;
}

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  const tls = engine.tls;
  if (tls === undefined) throw new Error('rig tls engine has no certificates');
  const { readFileSync } = await import('node:fs');
  host = (
    await api.post<Host>('/hosts', {
      name: 'tls',
      url: engine.url,
      tls_ca: readFileSync(tls.ca, 'utf8'),
      tls_cert: readFileSync(tls.cert, 'utf8'),
      tls_key: readFileSync(tls.key, 'utf8'),
    })
  ).body;
});
afterAll(async () => {
  for (const name of made) dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

const logsOf = async (name: string, query = '') => {
  const id = dockerCli(engine, ['inspect', '-f', '{{.Id}}', name]).slice(0, 12);
  await waitFor('container listed', async () =>
    (await api.get<{ id: string }[]>(`/containers?host_id=${host.id}`)).body.some(
      (c) => c.id === id,
    ),
  );
  return api.get<ContainerLogsResponse>(`/hosts/${host.id}/containers/${id}/logs${query}`);
};

describe('container logs', () => {
  it('separates stdout and stderr with timestamps over mTLS, and bounds the tail', async () => {
    const image = readRig().images.busybox;
    const name = run([
      image,
      'sh',
      '-c',
      'for i in 1 2 3 4 5; do echo out-$i; echo err-$i >&2; done; sleep 100000',
    ]);
    await waitFor('lines written', () => dockerCli(engine, ['logs', name]).includes('out-5'));
    const all = await logsOf(name);
    expect(all.status).toBe(200);
    expect(all.body.container_name).toBe(name);
    expect(all.body.logs.filter((l) => l.stream === 'stdout').map((l) => l.log)).toEqual([
      'out-1',
      'out-2',
      'out-3',
      'out-4',
      'out-5',
    ]);
    expect(all.body.logs.filter((l) => l.stream === 'stderr').map((l) => l.log)).toContain('err-3');
    expect(
      all.body.logs.every((l) => l.timestamp !== null && !Number.isNaN(Date.parse(l.timestamp))),
    ).toBe(true);
    const tail = await logsOf(name, '?tail=2');
    expect(tail.body.logs).toHaveLength(2);
  });

  it('reads a TTY container raw, and refuses bad queries with the field named', async () => {
    const name = run(['-t', readRig().images.busybox, 'sh', '-c', 'echo tty-line; sleep 100000']);
    await waitFor('line written', () => dockerCli(engine, ['logs', name]).includes('tty-line'));
    const res = await logsOf(name);
    expect(res.body.logs.map((l) => l.log)).toEqual(['tty-line']);
    expect((await logsOf(name, '?tail=0')).status).toBe(400);
    const big = await logsOf(name, '?tail=10001');
    expect((big.body as unknown as { detail: string }).detail).toBe('Lines must be at most 10000');
    expect((await logsOf(name, '?since=yesterday')).status).toBe(400);
    expect((await api.get(`/hosts/${host.id}/containers/deadbeef0000/logs`)).status).toBe(404);
  });

  it('answers 429 to a viewer that polls far faster than the 2 s refresh', async () => {
    const name = run([readRig().images.busybox, 'sleep', '100000']);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await logsOf(name)).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('log frames', () => {
  const frame = (stream: number, text: string) => {
    const body = Buffer.from(text);
    const head = Buffer.alloc(8);
    head[0] = stream;
    head.writeUInt32BE(body.length, 4);
    return Buffer.concat([head, body]);
  };

  it('demultiplexes frames and keeps lines without timestamps', () => {
    const buffer = Buffer.concat([frame(1, 'a\nb\n'), frame(2, '2026-11-22T10:00:00.5Z oops\n')]);
    expect(parseLogBuffer(buffer)).toEqual([
      { timestamp: null, log: 'a', stream: 'stdout' },
      { timestamp: null, log: 'b', stream: 'stdout' },
      { timestamp: '2026-11-22T10:00:00.5Z', log: 'oops', stream: 'stderr' },
    ]);
    expect(parseLogBuffer(Buffer.from('plain\r\ntext'))).toEqual([
      { timestamp: null, log: 'plain', stream: 'stdout' },
      { timestamp: null, log: 'text', stream: 'stdout' },
    ]);
    expect(parseLogBuffer(Buffer.alloc(0))).toEqual([]);
  });
});
