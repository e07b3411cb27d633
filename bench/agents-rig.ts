// bench/agents, part 2: the rig's `plain` engine (real Docker), reached by one Berth both
// through an agent process on its unix socket and directly over TCP (tcp://127.0.0.1:23750):
// the agent's own cost with 100 running containers at the 2 s stats interval, and how long an
// engine event takes to reach Berth's live channel by either way.
import type { Container, Host } from '@berth/contracts';
import { pssMb, rssMb, startAgents, waitOnline, type BenchAgents } from './agent-processes.ts';
import { startBerth, type BerthProcess } from './berth-process.ts';
import { watchEngineEvents } from './engine-events.ts';
import { cpuTicks, TICK_HZ } from './figures.ts';
import { watchLiveStates, type LiveStates } from './live-states.ts';
import { BENCH_LABEL, docker, inParallel, rig, type Engine } from './rig.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every container this bench makes carries it, and only those are removed at the end. */
export const AGENTS_LABEL = 'berth-bench-agents=1';
export const AGENT_HOST = 'agent-plain';
export const DIRECT_HOST = 'direct-plain';

export interface RigSetup {
  engine: Engine;
  berth: BerthProcess;
  agent: BenchAgents;
  live: LiveStates;
  /** Host ids by name (AGENT_HOST, and DIRECT_HOST once added). */
  hostIds: Map<string, string>;
  /** The running containers' full ids, in order. */
  ids: string[];
}

export interface Footprint {
  cpu: number;
  /** Mean over the window, MB; its anonymous part; the peak since the agent started. */
  rss: number;
  anonRss: number;
  peakRss: number;
  /** Proportional set size at the window's end and its file-backed part, MB. */
  pss: number;
  pssFile: number;
  berthCpu: number;
}

export const plainEngine = (): Engine => {
  const engine = rig.engines.find((e) => e.name === 'plain');
  if (engine === undefined) throw new Error('The rig has no plain engine');
  return engine;
};

/** Removes every container this bench made on `engine`. */
export async function removeAgentsContainers(engine: Engine): Promise<void> {
  const ids = (await docker(engine, ['ps', '-aq', '--filter', `label=${AGENTS_LABEL}`])).stdout
    .split('\n')
    .filter(Boolean);
  for (let i = 0; i < ids.length; i += 50)
    await docker(engine, ['rm', '-f', ...ids.slice(i, i + 50)]);
}

/**
 * `count` running busybox containers: `--init` so a stop ends them at once (sleep as PID 1
 * ignores SIGTERM and would wait out the stop timeout), `sh -c sleep` answering like a service.
 */
export async function runContainers(
  engine: Engine,
  count: number,
  prefix: string,
): Promise<string[]> {
  const ids: string[] = new Array<string>(count);
  const base = ['run', '-d', '--init', '--label', BENCH_LABEL, '--label', AGENTS_LABEL];
  await inParallel(
    Array.from({ length: count }, (_, i) => async () => {
      const args = [...base, '--name', `${prefix}-${i}`, rig.images.busybox, 'sleep', '36000'];
      ids[i] = (await docker(engine, args)).stdout.trim();
    }),
    6,
  );
  return ids;
}

async function hostIdsByName(berth: BerthProcess): Promise<Map<string, string>> {
  const { body } = await berth.api('/hosts');
  return new Map((body as Host[]).map((h) => [h.name, h.id]));
}

/** Waits until Berth lists `ids` (full ids) as running on `hostId`. */
export async function waitListed(
  berth: BerthProcess,
  hostId: string,
  ids: string[],
): Promise<void> {
  const wanted = new Set(ids.map((id) => id.slice(0, 12)));
  for (let i = 0; i < 300; i++) {
    const { body } = await berth.api(`/containers?host_id=${hostId}`);
    const running = (body as Container[]).filter((c) => wanted.has(c.id) && c.state === 'running');
    if (running.length === wanted.size) return;
    await sleep(200);
  }
  throw new Error(`Berth never listed the ${wanted.size} containers running`);
}

/** Berth, one agent on the plain engine, and `count` running containers listed through it. */
export async function setUpRig(port: number, count: number): Promise<RigSetup> {
  const engine = plainEngine();
  await removeAgentsContainers(engine);
  // Stats over the Engine API: a remote host's cgroup files are not Berth's to read, and on
  // this machine the rig's would be.
  const berth = await startBerth(port, { BERTH_STATS_SOURCE: 'api' });
  const agent = await startAgents(
    berth,
    [engine.socket.replace(/^unix:\/\//, '')],
    () => AGENT_HOST,
  );
  if ((await waitOnline(berth, [AGENT_HOST], 60_000)) === null)
    throw new Error('The agent did not come online');
  const ids = await runContainers(engine, count, 'berth-bench-agents');
  const hostIds = await hostIdsByName(berth);
  await waitListed(berth, hostIds.get(AGENT_HOST) ?? '', ids);
  const live = watchLiveStates(berth);
  await live.opened;
  return { engine, berth, agent, live, hostIds, ids };
}

/** The agent's CPU and memory over a window, while a browser watches (stats every 2 s). */
export async function agentFootprint(rigSetup: RigSetup, seconds: number): Promise<Footprint> {
  await sleep(10_000); // the first stats passes and their connections
  const pid = rigSetup.agent.pids()[0] ?? 0;
  const berthPid = rigSetup.berth.child.pid ?? 0;
  const before = { agent: cpuTicks([pid]), berth: cpuTicks([berthPid]) };
  const rss: number[] = [];
  const anon: number[] = [];
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    const now = rssMb(pid);
    rss.push(now.now);
    anon.push(now.anon);
  }
  const share = (ticks: number) => (ticks / TICK_HZ / seconds) * 100;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    cpu: share(cpuTicks([pid]) - before.agent),
    rss: mean(rss),
    anonRss: mean(anon),
    peakRss: rssMb(pid).peak,
    ...pssMb(pid),
    berthCpu: share(cpuTicks([berthPid]) - before.berth),
  };
}

/** Adds the same engine as a direct TCP host and waits until it lists `ids`. */
export async function addDirectHost(rigSetup: RigSetup, ids: string[]): Promise<void> {
  const { berth, engine } = rigSetup;
  const { res, body } = await berth.api('/hosts', { name: DIRECT_HOST, url: engine.url });
  if (!res.ok) throw new Error(`Adding ${engine.url}: ${JSON.stringify(body)}`);
  for (const [name, id] of await hostIdsByName(berth)) rigSetup.hostIds.set(name, id);
  await waitListed(berth, rigSetup.hostIds.get(DIRECT_HOST) ?? '', ids);
}

/**
 * Engine event → Berth's live channel, per host: each of `rounds` containers is stopped and
 * started again with the docker CLI; the time runs from the engine's own event (its `die`,
 * its `start`) until the live channel shows the new state on each host.
 */
export async function eventLatencies(
  rigSetup: RigSetup,
  rounds: number,
): Promise<Map<string, number[]>> {
  const { engine, live, hostIds } = rigSetup;
  const events = watchEngineEvents(engine, AGENTS_LABEL);
  await sleep(500); // `docker events` subscribed
  const latencies = new Map<string, number[]>([...hostIds.keys()].map((name) => [name, []]));
  try {
    for (const id of rigSetup.ids.slice(0, rounds)) {
      for (const [command, action, state] of [
        ['stop', 'die', 'exited'],
        ['start', 'start', 'running'],
      ] as const) {
        const issued = performance.now() - 50;
        await docker(engine, [command, id]);
        const at = await events.at(id, action, issued);
        if (at === null) throw new Error(`No ${action} event for ${id}`);
        for (const [name, hostId] of hostIds) {
          // 20 ms of slack for the two clocks; the previous change was a second ago or more.
          const shown = await live.seen(hostId, id.slice(0, 12), state, at - 20);
          latencies.get(name)?.push(shown === null ? Infinity : shown - at);
        }
      }
    }
  } finally {
    events.close();
  }
  return latencies;
}
