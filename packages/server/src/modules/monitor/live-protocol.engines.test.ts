import { randomBytes } from 'node:crypto';
import { containerKey, containerKeyOf } from '@berth/contracts';
import type { Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { z } from 'zod';
import { apiClient } from '../../test/api.js';
import { openLiveClient, opened, socketTo } from '../../test/live-client.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { addRigHosts } from '../../test/rig-hosts.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

/*
 * The messages a client gets when it does not opt in to a newer protocol, checked against
 * schemas written from the words of the product's spec, not from Berth's own contracts:
 *   containers_update: containers, host_metrics (keyed by host id), host_sparklines (keyed by
 *   host id), container_sparklines (keyed by container key; each with cpu, mem and net series
 *   arrays), timestamp. A container is identified by the key host_id:container_id.
 *   Container: host_id, id, short_id, name, state (running, paused, stopped, exited,
 *   restarting, dead), status, cpu_percent, memory_percent, network_rx, network_tx, web_ui_url.
 *   Host live stats: cpu_percent, mem_percent, mem_bytes, net_bytes_per_sec.
 *   initial_state refreshes containers and hosts, and carries blackout.is_active.
 *   Ping and pong carry a type field.
 * The engine's own states 'created' and 'removing' pass through, as the reference server
 * passes them.
 */
const stat = z.number().nullable();
const series = z.object({
  cpu: z.array(z.number()),
  mem: z.array(z.number()),
  net: z.array(z.number()),
});
const specContainer = z.object({
  host_id: z.string(),
  id: z.string(),
  short_id: z.string(),
  name: z.string(),
  state: z.enum([
    'running',
    'paused',
    'stopped',
    'exited',
    'restarting',
    'dead',
    'created',
    'removing',
  ]),
  status: z.string(),
  cpu_percent: stat,
  memory_percent: stat,
  network_rx: stat,
  network_tx: stat,
  web_ui_url: z.string().nullable(),
});
const specContainersUpdate = z.object({
  type: z.literal('containers_update'),
  data: z
    .object({
      containers: z.array(specContainer),
      host_metrics: z.record(
        z.string(),
        z.object({
          cpu_percent: z.number(),
          mem_percent: z.number(),
          mem_bytes: z.number(),
          net_bytes_per_sec: z.number(),
        }),
      ),
      host_sparklines: z.record(z.string(), series),
      container_sparklines: z.record(z.string().regex(/^.+:[0-9a-f]{12}$/), series),
      timestamp: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'a time'),
    })
    // "Other message fields: not shown": a client of the spec gets these and no others.
    .strict(),
});
type SpecContainersUpdate = z.infer<typeof specContainersUpdate>['data'];
const specInitialState = z.object({
  type: z.literal('initial_state'),
  data: z.object({
    hosts: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })),
    containers: z.array(specContainer),
    blackout: z.object({ is_active: z.boolean() }),
  }),
});

let t: TestApp;
let cookie: string;
let hosts: Record<'local' | 'plain' | 'tls', Host>;
const engine = rigEngine('plain');
const name = `berth-t-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  cookie = await signedInCookie(t.app);
  hosts = await addRigHosts(apiClient(t.app, cookie));
});
afterAll(async () => {
  for (const n of [name, `${name}-2`, `${name}-by`]) {
    try {
      dockerCli(engine, ['rm', '-f', n]);
    } catch {
      // never created
    }
  }
  await t.close();
});

/** A sleeping container on the plain engine; its short id. */
function run(containerName: string): string {
  const image = readRig().images.busybox;
  const args = ['run', '-d', '--label', 'berth-test=1', '--name', containerName, image];
  return dockerCli(engine, [...args, 'sleep', '300']).slice(0, 12);
}

/** A client that speaks the spec: it keeps every message as the JSON it arrived as. */
async function specClient(query = '') {
  const socket = socketTo(t.app, cookie, query);
  const messages: { type?: unknown; data?: unknown }[] = [];
  socket.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString()) as never));
  await opened(socket);
  const updates = () =>
    messages
      .filter((m) => m.type === 'containers_update')
      .map((m) => specContainersUpdate.parse(m).data);
  return { socket, messages, updates };
}

const pong = (socket: WebSocket) =>
  new Promise<unknown>((resolve) => {
    socket.on('message', (raw: Buffer) => {
      const m = JSON.parse(raw.toString()) as { type?: string };
      if (m.type === 'pong') resolve(m);
    });
    socket.send(JSON.stringify({ type: 'ping' }));
  });

describe('the live channel for a client that does not opt in', () => {
  it('sends initial_state and every containers_update in the spec shapes; a stop arrives as a full list', async () => {
    // Listed before the client connects, so initial_state has it.
    const bystander = run(`${name}-by`);
    const api = apiClient(t.app, cookie);
    await waitFor('the bystander listed', async () =>
      (await api.get<{ id: string }[]>('/containers')).body.some((c) => c.id === bystander),
    );
    const client = await specClient();
    try {
      const id = dockerCli(engine, [
        'run',
        '-d',
        '--label',
        'berth-test=1',
        '--name',
        name,
        readRig().images.busybox,
        'sleep',
        '300',
      ]).slice(0, 12);
      const key = containerKey(hosts.plain.id, id);
      const find = (u: SpecContainersUpdate) => u.containers.find((c) => containerKeyOf(c) === key);
      // Running, with its series under its container key once a stats pass has sampled it.
      const running = await waitFor('running, with its sparklines', () =>
        client
          .updates()
          .find((u) => find(u)?.state === 'running' && u.container_sparklines[key] !== undefined),
      );
      expect(running.host_metrics[hosts.plain.id]).toBeDefined();
      expect(running.host_sparklines[hosts.plain.id]?.cpu.length).toBeGreaterThan(0);
      const before = client.updates().length;
      dockerCli(engine, ['stop', '-t', '0', name]);
      const stopped = await waitFor('the stop in a containers_update', () =>
        client
          .updates()
          .slice(before)
          .find((u) => find(u)?.state === 'exited'),
      );
      // Every container again, not only the one that changed.
      expect(stopped.containers.map((c) => c.id)).toContain(bystander);
      expect(running.containers.map((c) => c.id)).toContain(bystander);

      const initial = specInitialState.parse(
        client.messages.find((m) => m.type === 'initial_state'),
      );
      expect(initial.data.hosts.map((h) => h.id)).toContain(hosts.plain.id);
      expect(initial.data.containers.map((c) => c.id)).toContain(bystander);
      expect(await pong(client.socket)).toEqual({ type: 'pong' });
    } finally {
      client.socket.close();
    }
  });

  it('sends the spec shapes for an opt-in value it does not know, and keeps the socket open', async () => {
    for (const query of ['?protocol=banana', '?protocol=3&sparklines=0', '?protocol=&x=1']) {
      const client = await specClient(query);
      try {
        await waitFor(`containers_update for ${query}`, () => client.updates().length > 0);
        expect(await pong(client.socket)).toEqual({ type: 'pong' });
        expect(client.socket.readyState).toBe(client.socket.OPEN);
      } finally {
        client.socket.close();
      }
    }
  });

  it('sends each client its own form when both kinds are connected', async () => {
    const spec = await specClient();
    const berth = await openLiveClient(t.app, cookie);
    try {
      dockerCli(engine, [
        'run',
        '-d',
        '--label',
        'berth-test=1',
        '--name',
        `${name}-2`,
        readRig().images.busybox,
        'sleep',
        '300',
      ]);
      // Deltas (parsed by Berth's own schema in openLiveClient) after the first full one.
      await waitFor('a delta for the browser', () =>
        berth.messages.some((m) => m.message.type === 'containers_update' && !m.message.data.full),
      );
      await waitFor('two spec updates', () => spec.updates().length >= 2);
    } finally {
      spec.socket.close();
      berth.close();
    }
  });
});
