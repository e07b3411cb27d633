// bench/agent-tunnel-hol: does a 10 MB log answer hold back a small engine request on the same
// agent connection, and if so, is it the tunnel (HTTP/2 streams over one WebSocket) or the
// reader's own work? Without Berth in the way: this process is Berth's end of the tunnel
// (openAgentTunnel from the server's dist), a child process is the agent's (serveEngine from
// the agent's dist, with the agent's node flags) on the rig's plain engine socket. A small
// request (inspect) is timed again and again, idle and while the 10 MB log (10,000 lines of
// 1 KB, `tail=10000`, as Berth's log viewer asks) is read over and over beside it, once thrown
// away as it comes and once worked on as it comes (decoded, split into lines, each as JSON,
// about what Berth does with a log answer); the same through a second agent that sends what
// it wrote in one turn of its event loop as one WebSocket message (an experiment, not the
// agent), and through the engine's unix socket directly. CPU of the engine, this process and
// the agent, and the sizes of the agent's WebSocket messages, are printed beside. Needs the
// rig and built dists (`npm run build && npm run build -w @berth/agent`). About 1.5 minutes.
// Prints figures; asserts nothing; removes its container and stops its children.
// Usage: node bench/agent-tunnel-hol.ts [rounds=60]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request, type AgentOptions } from 'node:http';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { openAgentTunnel } from '../packages/server/dist/docker/agent-tunnel.js';
import { webSocketBytes } from '../packages/agent/dist/websocket-bytes.js';
import { AGENT_NODE_FLAGS } from './agent-processes.ts';
import { readFileSync } from 'node:fs';
import { cpuTicks, f1, TICK_HZ } from './figures.ts';
import { BENCH_LABEL, docker, rig } from './rig.ts';

const ROUNDS = Number(process.argv[2] ?? 60);
const LOG_LINES = 10_000;
const SPACING_MS = 25;
const REPO = resolve(import.meta.dirname, '..');
const found = rig.engines.find((e) => e.name === 'plain');
if (found === undefined) throw new Error('No plain engine in the rig');
const plain = found;
const socketPath = plain.socket.replace('unix://', '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The agent's end, as its connect.ts runs it once the WebSocket is open. */
const AGENT_SCRIPT = `
import { WebSocket } from 'ws';
import { serveEngine } from '${REPO}/packages/agent/dist/engine-tunnel.js';
import { webSocketBytes } from '${REPO}/packages/agent/dist/websocket-bytes.js';
const [url, socketPath, batch] = process.argv.slice(1);
const ws = new WebSocket(url, { perMessageDeflate: false });
ws.on('open', () => {
  const bytes = webSocketBytes(ws);
  if (batch === 'batch') {
    // An experiment, not the agent: what is written in one turn of the event loop (all the
    // engine reads of one poll) goes as one WebSocket message.
    const write = bytes.write.bind(bytes);
    let corked = false;
    bytes.write = (...args) => {
      if (!corked) {
        corked = true;
        bytes.cork();
        setImmediate(() => {
          corked = false;
          bytes.uncork();
        });
      }
      return write(...args);
    };
  }
  serveEngine(bytes, { socketPath });
});
ws.on('close', () => process.exit(0));
`;

/** Node's http client over the tunnel: every new connection is a CONNECT stream. */
class TunnelAgent extends Agent {
  private readonly dial: () => Duplex;
  constructor(dial: () => Duplex, options: AgentOptions) {
    super(options);
    this.dial = dial;
  }
  override createConnection(): Duplex {
    return this.dial();
  }
}

interface Way {
  name: string;
  agent: Agent;
  socketPath?: string;
  /** The agent process (tunnels). */
  pid?: number;
  /** Sizes of the agent's WebSocket messages to Berth (tunnels). */
  messages?: number[];
}

/** One GET; answers its time and size, each chunk handed to `onChunk` as it comes. */
function get(way: Way, path: string, onChunk: (b: Buffer) => void = () => undefined) {
  const started = performance.now();
  return new Promise<{ ms: number; bytes: number }>((done, fail) => {
    const req = request(
      {
        agent: way.agent,
        ...(way.socketPath === undefined ? { host: 'engine' } : { socketPath: way.socketPath }),
        path: `/v1.41${path}`,
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          onChunk(chunk);
        });
        res.on('end', () => done({ ms: performance.now() - started, bytes }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end();
  });
}

/** About what Berth does with a log answer as it comes: text, lines, each line as JSON. */
function workOn(chunk: Buffer): void {
  const lines = chunk.toString('utf8').split('\n');
  let size = 0;
  for (const line of lines) size += JSON.stringify({ line, stream: 'stdout' }).length;
  if (size < 0) throw new Error('unreachable');
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** ROUNDS inspects, with the log read over and over beside them (mode) or not. */
async function measure(
  way: Way,
  logId: string,
  mode: 'idle' | 'discard' | 'work',
  enginePid: number,
) {
  const messages = way.messages ?? [];
  const pids = { engine: enginePid, agent: way.pid ?? 0 };
  const state = { going: mode !== 'idle', reads: 0, bytes: 0, readMs: 0 };
  const reader = (async () => {
    while (state.going) {
      const r = await get(
        way,
        `/containers/${logId}/logs?stdout=1&tail=${LOG_LINES}`,
        mode === 'work' ? workOn : undefined,
      );
      state.reads++;
      state.bytes += r.bytes;
      state.readMs += r.ms;
    }
  })();
  await sleep(mode === 'idle' ? 0 : 150); // the first read is streaming
  const ms: number[] = [];
  const ticks = [cpuTicks([pids.engine]), cpuTicks([process.pid]), cpuTicks([pids.agent])];
  const from = performance.now();
  messages.length = 0;
  for (let i = 0; i < ROUNDS; i++) {
    ms.push((await get(way, `/containers/${logId}/json`)).ms);
    await sleep(SPACING_MS);
  }
  const seconds = (performance.now() - from) / 1000;
  const [engine, reader_, agent] = [pids.engine, process.pid, pids.agent].map(
    (pid, i) => ((cpuTicks([pid]) - (ticks[i] ?? 0)) / TICK_HZ / seconds) * 100,
  );
  const cpu = `; CPU: engine ${f1(engine ?? 0)} %, reader ${f1(reader_ ?? 0)} %, agent ${f1(agent ?? 0)} %`;
  const sizes = messages.splice(0).sort((a, b) => a - b);
  const wsLine =
    sizes.length > 0
      ? `; agent → Berth WebSocket messages: ${sizes.length}, p50 ${f1(pct(sizes, 50) / 1024)} KB, max ${f1((sizes.at(-1) ?? 0) / 1024)} KB`
      : '';
  state.going = false;
  await reader;
  const log =
    mode === 'idle'
      ? ''
      : `; ${state.reads} log reads of ${f1(state.bytes / state.reads / 1e6)} MB, ${f1(state.readMs / state.reads)} ms each`;
  say(
    `   ${way.name.padEnd(7)} ${mode.padEnd(8)} inspect p50 ${f1(pct(ms, 50))} ms, p95 ${f1(pct(ms, 95))} ms, max ${f1(Math.max(...ms))} ms${log}${cpu}${wsLine}`,
  );
  return pct(ms, 95);
}

const say = (line: string) => console.log(line);

async function main(): Promise<void> {
  say(`bench/agent-tunnel-hol, ${new Date().toISOString()}, load ${load()}`);
  const print = `awk 'BEGIN { s = sprintf("%1000s", ""); gsub(/ /, "x", s); for (i = 0; i < ${LOG_LINES}; i++) print i, s }'`;
  await docker(plain, ['rm', '-f', 'berth-bench-hol-log']).catch(() => undefined);
  const logId = (
    await docker(plain, [
      'run',
      '-d',
      '--label',
      BENCH_LABEL,
      '--name',
      'berth-bench-hol-log',
      rig.images.busybox,
      'sh',
      '-c',
      `${print}; exec sleep 36000`,
    ])
  ).stdout
    .trim()
    .slice(0, 12);
  for (let i = 0; ; i++) {
    const last = (await docker(plain, ['logs', '--tail', '1', logId])).stdout;
    if (last.startsWith(`${LOG_LINES - 1} `)) break;
    if (i > 100) throw new Error('The log container did not print its 10 MB');
    await sleep(200);
  }
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  // Each agent's tunnel opens as it connects: what it sends first (HTTP/2's preface) must not
  // come before anyone reads the socket.
  const tunnels = new Map<
    string,
    { tunnel: ReturnType<typeof openAgentTunnel>; messages: number[] }
  >();
  wss.on('connection', (socket: WebSocket, req: { url?: string }) => {
    const tunnel = openAgentTunnel(webSocketBytes(socket));
    // How the agent batches what it sends: a message is read whole before a byte of it is used.
    const messages: number[] = [];
    socket.on('message', (data: Buffer) => messages.push(data.length));
    tunnels.set(req.url ?? '', { tunnel, messages });
  });
  await once(wss, 'listening');
  const { port } = wss.address() as { port: number };
  const children = ['plain', 'batch'].map((kind) =>
    spawn(
      process.execPath,
      [
        ...AGENT_NODE_FLAGS,
        '--input-type=module',
        '-e',
        AGENT_SCRIPT,
        `ws://127.0.0.1:${port}/${kind}`,
        socketPath,
        kind,
      ],
      { cwd: REPO, stdio: 'inherit' },
    ),
  );
  try {
    for (let i = 0; tunnels.size < 2; i++) {
      if (i > 100) throw new Error('The agents did not connect');
      await sleep(100);
    }
    const tunnelWay = (name: string, kind: string, pid: number | undefined): Way => {
      const { tunnel, messages } = tunnels.get(`/${kind}`) ?? {};
      if (tunnel === undefined) throw new Error(`no ${kind} agent`);
      const agent = new TunnelAgent(tunnel.dial, { keepAlive: true });
      return { name, agent, messages: messages ?? [], ...(pid === undefined ? {} : { pid }) };
    };
    const enginePid = Number(
      readFileSync((plain as { pidFile?: string }).pidFile ?? '', 'utf8').trim(),
    );
    const ways: Way[] = [
      tunnelWay('tunnel', 'plain', children[0]?.pid),
      tunnelWay('batched', 'batch', children[1]?.pid),
      { name: 'direct', agent: new Agent({ keepAlive: true }), socketPath },
    ];
    say(
      `${ROUNDS} inspects ${SPACING_MS} ms apart, idle and beside a 10 MB log read over and over:`,
    );
    const p95 = new Map<string, number>();
    for (const way of ways)
      for (const mode of ['idle', 'discard', 'work'] as const)
        p95.set(`${way.name} ${mode}`, await measure(way, logId, mode, enginePid));
    say('p95 beside the log / idle:');
    for (const way of ways)
      for (const mode of ['discard', 'work'])
        say(
          `   ${way.name.padEnd(7)} ${mode.padEnd(8)} ${((p95.get(`${way.name} ${mode}`) ?? 0) / (p95.get(`${way.name} idle`) ?? 1)).toFixed(2)}×`,
        );
  } finally {
    for (const { tunnel } of tunnels.values()) tunnel.close();
    for (const child of children) child.kill('SIGTERM');
    wss.close();
    await docker(plain, ['rm', '-f', logId]).catch(() => undefined);
    say(`end: ${new Date().toISOString()}, load ${load()}`);
  }
}

await main();
