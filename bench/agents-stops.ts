// bench/agents, part 3: does a busy log stream delay a stop on the same connection? Twenty
// stops through Berth's API on an idle connection, then twenty while a viewer reads a 10 MB
// log of another container over and over (GET …/logs?tail=10000, as Berth's log viewer asks,
// paced under its limit of 20 reads in 10 s), on the agent host and on the direct one.
import type { BerthProcess } from './berth-process.ts';
import { timeAnswer } from './berth-process.ts';
import { AGENTS_LABEL, waitListed, type RigSetup } from './agents-rig.ts';
import { cpuTicks, TICK_HZ } from './figures.ts';
import { BENCH_LABEL, docker, rig, type Engine } from './rig.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Log lines of ~1 KB: the most lines one log answer carries (MAX_LOG_TAIL), 10 MB. */
const LOG_LINES = 10_000;
const LOG_READ_SPACING_MS = 600;

export interface LogReads {
  reads: number;
  failed: number;
  meanMs: number;
  /** Share of the stops' time during which a log read was under way. */
  overlap: number;
}

export interface StopFigures {
  idle: number[];
  withLog: number[];
  log: LogReads;
  /** Berth's and the agent's CPU (% of a core) while the stops ran under the log. */
  berthCpu: number;
  agentCpu: number;
}

/** A container whose log holds 10 MB: 10,000 lines of 1 KB, printed at once. */
export async function makeLogContainer(engine: Engine): Promise<string> {
  const print = `awk 'BEGIN { s = sprintf("%1000s", ""); gsub(/ /, "x", s); for (i = 0; i < ${LOG_LINES}; i++) print i, s }'`;
  const id = (
    await docker(engine, [
      'run',
      '-d',
      '--init',
      '--label',
      BENCH_LABEL,
      '--label',
      AGENTS_LABEL,
      '--name',
      'berth-bench-agents-log',
      rig.images.busybox,
      'sh',
      '-c',
      `${print}; exec sleep 36000`,
    ])
  ).stdout.trim();
  for (let i = 0; i < 100; i++) {
    const last = (await docker(engine, ['logs', '--tail', '1', id])).stdout;
    if (last.startsWith(`${LOG_LINES - 1} `)) return id;
    await sleep(200);
  }
  throw new Error('The log container did not print its 10 MB');
}

/** Times each stop through Berth's API, one after another. */
async function stopEach(berth: BerthProcess, hostId: string, ids: string[]): Promise<number[]> {
  const ms: number[] = [];
  for (const id of ids) {
    const started = performance.now();
    const { res, body } = await berth.api(
      `/hosts/${hostId}/containers/${id.slice(0, 12)}/stop`,
      {},
    );
    if (!res.ok) throw new Error(`stop ${id.slice(0, 12)}: ${res.status} ${JSON.stringify(body)}`);
    ms.push(performance.now() - started);
  }
  return ms;
}

/** Reads the log again and again until `stop` is called; answers what it saw. */
function followLog(berth: BerthProcess, hostId: string, logId: string) {
  const reads: { start: number; end: number; ok: boolean }[] = [];
  const state = { going: true };
  const loop = (async () => {
    while (state.going) {
      const start = performance.now();
      const path = `/hosts/${hostId}/containers/${logId.slice(0, 12)}/logs?tail=${LOG_LINES}`;
      const { status } = await timeAnswer(berth, path);
      reads.push({ start, end: performance.now(), ok: status === 200 });
      await sleep(Math.max(0, LOG_READ_SPACING_MS - (performance.now() - start)));
    }
  })();
  return {
    stop: async (from: number, to: number): Promise<LogReads> => {
      state.going = false;
      await loop;
      const busy = reads.reduce(
        (sum, r) => sum + Math.max(0, Math.min(r.end, to) - Math.max(r.start, from)),
        0,
      );
      const ok = reads.filter((r) => r.ok);
      return {
        reads: ok.length,
        failed: reads.length - ok.length,
        meanMs: ok.reduce((sum, r) => sum + r.end - r.start, 0) / Math.max(1, ok.length),
        overlap: busy / Math.max(1, to - from),
      };
    },
  };
}

/** Starts the stopped containers again and waits until every host lists them running. */
async function startAgain(rigSetup: RigSetup, ids: string[]): Promise<void> {
  await docker(rigSetup.engine, ['start', ...ids]);
  for (const hostId of rigSetup.hostIds.values()) await waitListed(rigSetup.berth, hostId, ids);
}

/** The stops on host `hostName`, idle and under the log, with `ids` running at the start. */
export async function stopsUnderLog(
  rigSetup: RigSetup,
  hostName: string,
  ids: string[],
  logId: string,
): Promise<StopFigures> {
  const { berth } = rigSetup;
  const hostId = rigSetup.hostIds.get(hostName) ?? '';
  const idle = await stopEach(berth, hostId, ids);
  await startAgain(rigSetup, ids);
  const follower = followLog(berth, hostId, logId);
  await sleep(300); // the first read is streaming
  const pids = { berth: [berth.child.pid ?? 0], agent: rigSetup.agent.pids() };
  const ticks = { berth: cpuTicks(pids.berth), agent: cpuTicks(pids.agent) };
  const from = performance.now();
  const withLog = await stopEach(berth, hostId, ids);
  const to = performance.now();
  const share = (before: number, now: number) =>
    ((now - before) / TICK_HZ / ((to - from) / 1000)) * 100;
  const berthCpu = share(ticks.berth, cpuTicks(pids.berth));
  const agentCpu = share(ticks.agent, cpuTicks(pids.agent));
  const log = await follower.stop(from, to);
  await startAgain(rigSetup, ids);
  return { idle, withLog, log, berthCpu, agentCpu };
}
