// bench/ws-deflate: is permessage-deflate worth it on the live channel? Sends what one browser
// receives — a full containers_update, then deltas of a stats tick every message — for 1,000
// containers (300 running) through a loopback WebSocket, with and without the extension, and
// prints bytes on the wire and the CPU both ends spent (server compresses, browser inflates;
// here both in this process). Asserts nothing. docs/decisions/010.
// Usage: node bench/ws-deflate.ts [ticks=200]
import { once } from 'node:events';
import {
  encodeContainersUpdate,
  type Container,
  type LiveContainersState,
  type Sparklines,
} from '@berth/contracts';
import { WebSocket, WebSocketServer } from 'ws';

const TICKS = Number(process.argv[2] ?? 200);
const HOSTS = ['6f1c2a3e-1111-2222-3333-444455556666', '7a2b3c4d-aaaa-bbbb-cccc-ddddeeeeffff'];

const hex = (n: number) => n.toString(16).padStart(12, '0');
function container(i: number, tick: number): Container {
  const running = i < 300;
  const host = HOSTS[i % HOSTS.length] ?? '';
  const wobble = (k: number) => Math.round(Math.abs(Math.sin(i * 7 + tick * k)) * 1000) / 10;
  return {
    host_id: host,
    host_name: `bench-${i % HOSTS.length}`,
    id: hex(i * 7919),
    short_id: hex(i * 7919),
    name: `bench-${i}`,
    image: 'berth-test/busybox:1.0',
    state: running ? 'running' : 'exited',
    status: running ? 'Up 2 hours' : 'Exited (0) 3 hours ago',
    health: null,
    exit_code: running ? null : 0,
    created: '2026-11-23T14:00:00.000Z',
    started_at: '2026-11-23T14:00:01.000Z',
    restart_policy: 'no',
    ports: i % 5 === 0 ? [`0.0.0.0:${8000 + i}:80/tcp`] : [],
    volumes: [],
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
    labels: { 'berth-bench': '1' },
    tags: [],
    auto_restart: false,
    desired_state: 'unspecified',
    web_ui_url: null,
    auto_update_enabled: false,
    floating_tag_mode: 'exact',
    cpu_percent: running ? wobble(1) : null,
    memory_usage: running ? 10_000_000 + Math.round(wobble(2) * 1000) : null,
    memory_limit: running ? 8_000_000_000 : null,
    memory_percent: running ? wobble(3) : null,
    network_rx: running ? 1_000_000 + tick * 1000 : null,
    network_tx: running ? 500_000 + tick * 500 : null,
    net_bytes_per_sec: running ? Math.round(wobble(4) * 10) : null,
  };
}

function state(tick: number): LiveContainersState {
  const containers = Array.from({ length: 1000 }, (_, i) => container(i, tick));
  const container_sparklines: Record<string, Sparklines> = {};
  for (const c of containers.slice(0, 300)) {
    const series = (k: number) =>
      Array.from(
        { length: 30 },
        (_, j) => container(Number.parseInt(c.id, 16) / 7919, tick - 29 + j).cpu_percent ?? k,
      );
    container_sparklines[`${c.host_id}:${c.id}`] = {
      cpu: series(0),
      mem: series(1),
      net: series(2),
    };
  }
  return { seq: tick, containers, host_metrics: {}, host_sparklines: {}, container_sparklines };
}

// The messages one browser gets: full, then one delta per tick.
const messages: string[] = [];
let prev: LiveContainersState | null = null;
for (let t = 1; t <= TICKS + 1; t++) {
  const next = state(t);
  messages.push(
    JSON.stringify({ type: 'containers_update', data: encodeContainersUpdate(prev, next) }),
  );
  prev = next;
}

// As packages/server/src/platform/live-channel.ts sets it.
const LIVE_DEFLATE = { threshold: 1024, zlibDeflateOptions: { level: 1 } };

async function run(deflate: boolean) {
  const server = new WebSocketServer({
    port: 0,
    perMessageDeflate: deflate ? LIVE_DEFLATE : false,
  });
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const serverSide = new Promise<WebSocket>((r) => server.once('connection', r));
  const client = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: deflate });
  await once(client, 'open');
  const socket = await serverSide;
  let received = 0;
  const done = new Promise<void>((r) =>
    client.on('message', () => {
      if (++received === messages.length) r();
    }),
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const wire0 = (socket as unknown as { _socket: { bytesWritten: number } })._socket.bytesWritten;
  for (const m of messages) socket.send(m);
  await done;
  const cpu = process.cpuUsage(cpu0);
  const wire =
    (socket as unknown as { _socket: { bytesWritten: number } })._socket.bytesWritten - wire0;
  const ms = performance.now() - t0;
  client.close();
  server.close();
  return { wire, cpuMs: (cpu.user + cpu.system) / 1000, ms };
}

const raw = messages.reduce((n, m) => n + Buffer.byteLength(m), 0);
const full = Buffer.byteLength(messages[0] ?? '');
const deltaAvg = (raw - full) / Math.max(1, messages.length - 1);
// Warm-up of both paths, then the measured runs.
await run(false);
await run(true);
const plain = await run(false);
const deflated = await run(true);
const perMsg = (n: number) => n / messages.length;
console.log(
  `messages: 1 full (${(full / 1024).toFixed(1)} KB) + ${messages.length - 1} deltas (${(deltaAvg / 1024).toFixed(1)} KB on average), 1,000 containers, 300 running`,
);
console.log(
  `without permessage-deflate: ${(plain.wire / 1024).toFixed(0)} KB on the wire, CPU ${plain.cpuMs.toFixed(0)} ms (${perMsg(plain.cpuMs).toFixed(2)} ms per message, both ends)`,
);
console.log(
  `with permessage-deflate:    ${(deflated.wire / 1024).toFixed(0)} KB on the wire, CPU ${deflated.cpuMs.toFixed(0)} ms (${perMsg(deflated.cpuMs).toFixed(2)} ms per message, both ends)`,
);
console.log(
  `deflate: ${((1 - deflated.wire / plain.wire) * 100).toFixed(0)} % fewer bytes for ${perMsg(deflated.cpuMs - plain.cpuMs).toFixed(2)} ms more CPU per message; per browser at one delta every 2 s: ${(deltaAvg / 2 / 1024).toFixed(1)} KB/s plain`,
);
process.exit(0);
