import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Host, NotificationChannel } from '@berth/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { containerStoppedRule } from '../test/alert-rules.js';
import { httpReceiver, type HttpReceiver } from '../test/notification-receivers.js';
import { dockerCli, readRig, rigEngine } from '../test/rig.js';
import {
  ensureServerBuilt,
  httpApi,
  signInAgain,
  signInFirstTime,
  startServer,
  stopServer,
  type ServerProcess,
} from '../test/server-process.js';
import { waitFor } from '../test/wait.js';

/**
 * The built server stopped by real signals: live sockets get 1001, a notification being sent
 * holds the stop (and is sent again after the restart when its service never answered), and a
 * second signal cuts the stop short.
 */
const engine = rigEngine('plain');
const tag = randomBytes(3).toString('hex');
const container = `berth-stop-${tag}`;
const TOKEN = '987654321:berth-stop-token';
let rx: HttpReceiver;
let dataDir: string;
let server: ServerProcess;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let hostId = '';
let channelId = 0;
const start = () =>
  startServer(dataDir, { env: { BERTH_TELEGRAM_API_URL: rx.url, BERTH_LOG_LEVEL: 'info' } });
/** A restart, once the monitor shows the test container again (alerts follow its changes). */
async function restart(): Promise<void> {
  server = await start();
  const call = httpApi(server.base, await signInAgain(server.base));
  await containerListed(call);
}
const containerListed = (call: ReturnType<typeof httpApi>) =>
  waitFor('the container listed', async () =>
    (await call<{ name: string }[]>('GET', `/containers?host_id=${hostId}`)).body.some(
      (c) => c.name === container,
    ),
  );
const signalled = async (signal: NodeJS.Signals) => {
  const at = Date.now();
  server.child.kill(signal);
  const exit = await server.exited;
  return { ...exit, ms: Date.now() - at };
};
/** The Telegram messages about the test container, in arrival order. */
const messages = () =>
  rx.requests
    .map((r) => (JSON.parse(r.body) as { text: string }).text)
    .filter((text) => text.includes(container));
/**
 * Kills the container (or starts it when it is down) and waits until the notification of the
 * alert raised (or resolved) reached the receiver.
 */
async function notificationInFlight(): Promise<string> {
  const before = messages().length;
  const running = dockerCli(engine, ['inspect', '-f', '{{.State.Running}}', container]);
  dockerCli(engine, [running === 'true' ? 'kill' : 'start', container]);
  const sent = await waitFor('the notification request', () => messages()[before]);
  return sent;
}

beforeAll(async () => {
  ensureServerBuilt();
  rx = await httpReceiver();
  dataDir = mkdtempSync(join(tmpdir(), 'berth-stop-'));
  server = await start();
  const call = httpApi(server.base, await signInFirstTime(server.base));
  const host = (await call<Host>('POST', '/hosts', { name: `stop-${tag}`, url: engine.url })).body;
  hostId = host.id;
  await waitFor(
    'host online',
    async () => (await call<Host>('GET', `/hosts/${host.id}`)).body.status === 'online',
  );
  const channel = await call<NotificationChannel>('POST', '/notifications/channels', {
    name: `tg-${tag}`,
    type: 'telegram',
    config: { bot_token: TOKEN, chat_id: '1001' },
  });
  dockerCli(engine, [
    'run',
    '-d',
    '--name',
    container,
    readRig().images.busybox,
    'sh',
    '-c',
    "trap 'exit 0' TERM; while :; do sleep 1; done",
  ]);
  channelId = channel.body.id;
  const rule = await call(
    'POST',
    '/alerts/rules',
    containerStoppedRule(`stopped-${tag}`, [container], [channel.body.id]),
  );
  if (rule.status !== 200) throw new Error(JSON.stringify(rule.body));
  await containerListed(call);
}, 60_000);

afterAll(async () => {
  await stopServer(server);
  dockerCli(engine, ['rm', '-f', container]);
  await rx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// Each test starts from a running server, whatever the one before it left.
beforeEach(async () => {
  if (server.child.exitCode === null && server.child.signalCode === null) return;
  await restart();
});

describe('a stop by SIGTERM', { timeout: 60_000 }, () => {
  it('closes live sockets with 1001 going away and logs its start and its time', async () => {
    const cookie = await signInAgain(server.base);
    const socket = new WebSocket(`${server.base.replace('http', 'ws')}/ws/?protocol=2`, {
      headers: { cookie },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    const exit = await signalled('SIGTERM');
    expect(await closed).toBe(1001);
    expect(exit).toMatchObject({ code: 0, signal: null });
    const log = server.output();
    expect(log).toMatch(/"msg":"stopping on SIGTERM: no new connections/);
    const took = /"msg":"stopped cleanly in (\d+) ms"/.exec(log);
    expect(Number(took?.[1])).toBeLessThan(10_000);
    console.log(`stop with a live client: ${took?.[1]} ms in the process, ${exit.ms} ms to exit`);
  });

  it('waits for a notification being sent: an answer is recorded, not sent again', async () => {
    rx.delay(800);
    const sent = await notificationInFlight();
    const exit = await signalled('SIGTERM');
    rx.delay(0);
    expect(exit).toMatchObject({ code: 0, signal: null });
    await restart();
    await sleep(1500); // the outbox's first pass after the start has run
    expect(messages().filter((m) => m === sent)).toHaveLength(1);
    console.log(`stop with a delivery answered after 800 ms: ${exit.ms} ms to exit`);
  });

  it('leaves a notification whose service never answers queued: sent after the restart', async () => {
    rx.hang(true);
    const sent = await notificationInFlight();
    const exit = await signalled('SIGTERM');
    rx.hang(false);
    expect(exit).toMatchObject({ code: 0, signal: null });
    // Held by the outbox's wait for its delivery, and bounded by it.
    expect(exit.ms).toBeGreaterThanOrEqual(1900);
    expect(exit.ms).toBeLessThan(10_000);
    expect(server.output()).toMatch(/notifications still being sent at the stop/);
    await restart();
    await waitFor('the message sent again', () => messages().filter((m) => m === sent)[1]);
    console.log(`stop with a delivery that never answers: ${exit.ms} ms to exit`);
  });

  it('cuts a request still running after 3 s, so the stop ends in time', async () => {
    rx.hang(true);
    const call = httpApi(server.base, await signInAgain(server.base));
    // The receiver keeps the earlier tests' requests: only one arriving after this point counts.
    const before = rx.requests.length;
    // The test button waits on the service itself, up to 30 s.
    const testing = call('POST', `/notifications/channels/${channelId}/test`).then(
      (res) => `answered ${res.status}`,
      () => 'cut',
    );
    await waitFor('the test request at the service', () =>
      rx.requests.slice(before).some((request) => request.url.endsWith('/sendMessage')),
    );
    const exit = await signalled('SIGTERM');
    rx.hang(false);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeGreaterThanOrEqual(2900);
    expect(exit.ms).toBeLessThan(10_000);
    expect(await testing).toBe('cut');
    expect(server.output()).toMatch(
      /requests still running at the stop: their connections are closed/,
    );
    console.log(`stop with a request that never ends: ${exit.ms} ms to exit`);
  });

  it('ends at once with 143 on a second SIGTERM while a delivery holds the stop', async () => {
    rx.hang(true);
    await notificationInFlight();
    server.child.kill('SIGTERM');
    await sleep(500);
    expect(server.child.exitCode).toBeNull(); // the delivery holds it
    const exit = await signalled('SIGTERM');
    rx.hang(false);
    // 143 comes only from the second signal's path: the held stop would have ended with 0.
    expect(exit).toMatchObject({ code: 143, signal: null });
    expect(server.output()).toMatch(/second SIGTERM: exiting at once/);
  });
});
