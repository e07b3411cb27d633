import { randomBytes } from 'node:crypto';
import {
  applyContainersUpdate,
  containerKey,
  liveMessageSchema,
  type Host,
  type LiveContainersState,
  type LiveMessage,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { opened, socketTo } from '../../test/live-client.js';
import { dockerCli, endpointOf, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { userSignedIn } from '../../test/users.js';
import { waitFor } from '../../test/wait.js';

// Two real engines, one tagged prod and one staging; an admin's socket and a staging
// operator's sockets (Berth's protocol and the spec's) open side by side while containers on
// both start, stop and report stats. Nothing naming the prod host may reach the operator's
// sockets until the admin widens its tags; then the same sockets show prod without a reconnect.

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let adminCookie: string;
let operator: { id: number; cookie: string };
const hosts: Partial<Record<'prod' | 'staging', Host>> = {};
const run = randomBytes(4).toString('hex');
const names = { prod: `berth-ls-prod-${run}`, staging: `berth-ls-stage-${run}` };
const engines = { prod: rigEngine('plain'), staging: rigEngine('tls') };

const must = <T>(x: T | undefined): T => {
  if (x === undefined) throw new Error('missing');
  return x;
};

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  adminCookie = await signedInCookie(t.app);
  api = apiClient(t.app, adminCookie);
  for (const tag of ['prod', 'staging'] as const) {
    const tls = endpointOf(engines[tag]).tls;
    const res = await api.post<Host>('/hosts', {
      name: `ls-${tag}-${run}`,
      url: engines[tag].url,
      tags: [tag],
      tls_ca: tls?.ca ?? null,
      tls_cert: tls?.cert ?? null,
      tls_key: tls?.key ?? null,
    });
    if (res.status !== 200) throw new Error(`adding ${tag}: ${JSON.stringify(res.body)}`);
    hosts[tag] = res.body;
  }
  await waitFor(
    'both hosts online',
    async () => (await api.get<Host[]>('/hosts')).body.every((h) => h.status === 'online'),
    30_000,
  );
  operator = await userSignedIn(t.app, adminCookie, `ls-op-${run}`, 'operator');
  const scoped = await api.patch(`/users/${operator.id}`, { host_tags: ['staging'] });
  if (scoped.status !== 200) throw new Error(`scoping: ${JSON.stringify(scoped.body)}`);
}, 60_000);

afterAll(async () => {
  for (const tag of ['prod', 'staging'] as const) {
    try {
      dockerCli(engines[tag], ['rm', '-f', names[tag]]);
    } catch {
      // never created
    }
  }
  await t.close();
});

/** A socket that keeps every message as the text it came as, and (protocol 2) the container state. */
async function watch(cookie: string, protocol: 1 | 2) {
  const socket = socketTo(t.app, cookie, protocol === 2 ? '?protocol=2' : '');
  const texts: string[] = [];
  const messages: LiveMessage[] = [];
  let state: LiveContainersState | null = null;
  let closed: number | null = null;
  socket.on('message', (raw: Buffer) => {
    const text = raw.toString();
    texts.push(text);
    if (protocol !== 2) return;
    const message = liveMessageSchema.parse(JSON.parse(text));
    messages.push(message);
    if (message.type === 'containers_update') {
      state = applyContainersUpdate(state, message.data);
      if (state === null) socket.send(JSON.stringify({ type: 'containers_resync' }));
    }
  });
  socket.on('close', (code) => (closed = code));
  await opened(socket);
  return {
    texts,
    messages,
    state: () => state,
    closed: () => closed,
    close: () => socket.close(),
    /** Texts from index `from` on that name a host id. */
    naming: (hostId: string, from = 0) => texts.slice(from).filter((x) => x.includes(hostId)),
  };
}

const hostIdOf = (tag: 'prod' | 'staging') => must(hosts[tag]).id;

describe('live messages by host scope', () => {
  it("keeps the prod host from a staging operator's sockets, then shows it when widened", async () => {
    const admin = await watch(adminCookie, 2);
    const op = await watch(operator.cookie, 2);
    const opSpec = await watch(operator.cookie, 1);
    try {
      const prod = hostIdOf('prod');
      const staging = hostIdOf('staging');
      const prodId = runBusybox(engines.prod, names.prod);
      const stagingId = runBusybox(engines.staging, names.staging);
      const prodKey = containerKey(prod, prodId);
      const stagingKey = containerKey(staging, stagingId);
      const inState = (w: Awaited<ReturnType<typeof watch>>, key: string) =>
        w.state()?.containers.find((c) => containerKey(c.host_id, c.id) === key);

      // The window: the admin sees the prod container start, its event, its stats, its stop.
      await waitFor(
        'admin sees the prod container running',
        () => inState(admin, prodKey)?.state === 'running',
        30_000,
      );
      await waitFor(
        'operator sees the staging container running',
        () => inState(op, stagingKey)?.state === 'running',
        30_000,
      );
      await waitFor(
        'admin gets stats rows of the prod host',
        () =>
          admin.messages.some(
            (m) =>
              m.type === 'containers_update' &&
              !m.data.full &&
              (m.data.stats[prod]?.length ?? 0) > 0,
          ),
        30_000,
      );
      dockerCli(engines.prod, ['stop', '-t', '0', names.prod]);
      await waitFor(
        'admin sees the prod stop',
        () => inState(admin, prodKey)?.state === 'exited',
        30_000,
      );
      await waitFor(
        'admin gets an event of the prod host',
        () => admin.messages.some((m) => m.type === 'new_event' && m.data.host_id === prod),
        30_000,
      );
      const adminNaming = admin.naming(prod).length;
      expect(adminNaming).toBeGreaterThan(3);
      expect(op.naming(prod)).toEqual([]);
      expect(opSpec.naming(prod)).toEqual([]);
      expect(op.naming(staging).length).toBeGreaterThan(0);
      expect(opSpec.naming(staging).length).toBeGreaterThan(0);
      expect(op.texts.some((x) => x.includes(prodId))).toBe(false);

      // The admin widens the operator's tags: the same open sockets get prod at once.
      const mark = op.texts.length;
      const specMark = opSpec.texts.length;
      const widened = await api.patch(`/users/${operator.id}`, { host_tags: ['staging', 'prod'] });
      expect(widened.status).toBe(200);
      await waitFor(
        'the widened socket holds the prod container',
        () => inState(op, prodKey)?.state === 'exited',
        5_000,
      );
      await waitFor('the widened socket lists the prod host', () =>
        op.messages.some(
          (m) => m.type === 'initial_state' && m.data.hosts.some((h) => h.id === prod),
        ),
      );
      await waitFor(
        'the spec socket names prod too',
        () => opSpec.naming(prod, specMark).length > 0,
        5_000,
      );
      dockerCli(engines.prod, ['start', names.prod]);
      await waitFor(
        'the widened socket follows prod live',
        () => inState(op, prodKey)?.state === 'running',
        30_000,
      );
      await waitFor(
        'an event of the prod host on the widened socket',
        () => op.messages.some((m) => m.type === 'new_event' && m.data.host_id === prod),
        30_000,
      );
      expect(op.naming(prod, mark).length).toBeGreaterThan(2);

      // Narrowed again: a full state without prod, then nothing naming it.
      const narrowed = await api.patch(`/users/${operator.id}`, { host_tags: ['staging'] });
      expect(narrowed.status).toBe(200);
      await waitFor(
        'the narrowed socket drops the prod container',
        () => inState(op, prodKey) === undefined,
        5_000,
      );
      const after = op.texts.length;
      const adminAfter = admin.texts.length;
      dockerCli(engines.prod, ['stop', '-t', '0', names.prod]);
      await waitFor(
        'admin sees prod stop again',
        () => admin.naming(prod, adminAfter).length > 1,
        30_000,
      );
      expect(op.naming(prod, after)).toEqual([]);
      expect(op.closed()).toBeNull();
      expect(opSpec.closed()).toBeNull();

      // Disabled: the operator's sockets end within a second.
      const disabled = await api.patch(`/users/${operator.id}`, { disabled: true });
      expect(disabled.status).toBe(200);
      await waitFor(
        'the disabled user’s sockets close',
        () => op.closed() !== null && opSpec.closed() !== null,
        1_000,
      );
      expect(admin.closed()).toBeNull();
    } finally {
      admin.close();
      op.close();
      opSpec.close();
    }
  }, 150_000);

  it("narrows a second admin's open socket when it is made a staging operator", async () => {
    const other = await userSignedIn(t.app, adminCookie, `ls-admin-${run}`, 'admin');
    const live = await watch(other.cookie, 2);
    try {
      const prod = hostIdOf('prod');
      const holdsProd = () => live.state()?.containers.some((c) => c.host_id === prod) ?? false;
      await waitFor('the admin socket holds prod containers', holdsProd, 30_000);
      const demoted = await api.patch(`/users/${other.id}`, {
        role: 'operator',
        host_tags: ['staging'],
      });
      expect(demoted.status).toBe(200);
      // The answer comes after the socket took its new scope: its full state is on the way.
      await waitFor('the demoted socket drops prod', () => !holdsProd(), 5_000);
      const mark = live.texts.length;
      await waitFor(
        'two more containers_update',
        () =>
          live.messages.filter((m) => m.type === 'containers_update').length > 2 &&
          live.texts.length > mark + 2,
      );
      expect(live.naming(prod, mark)).toEqual([]);
      const last = live.messages.findLast((m) => m.type === 'initial_state');
      expect(last?.type === 'initial_state' && last.data.hosts.map((h) => h.id)).toEqual([
        hostIdOf('staging'),
      ]);
      expect(live.closed()).toBeNull();
    } finally {
      live.close();
    }
  }, 60_000);
});
