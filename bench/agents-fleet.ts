// bench/agents, part 1: a fleet of fake engines (fake-engine.ts) watched by Berth directly
// over TCP, then the same engines each behind an agent process, and those agents' reconnect
// after Berth restarts. The agents are real processes (packages/agent/dist/main.js), one per
// engine, as they would run on fifty hosts: their own CPU is counted apart from Berth's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Host } from '@berth/contracts';
import { startAgents, waitOnline, rssMb } from './agent-processes.ts';
import { addEngineHosts, startBerth, type BerthProcess } from './berth-process.ts';
import { fakeEngineSocket, startFakeEnginesApart } from './fake-engine.ts';
import { makeFakeHostFiles, type FakeHostFiles } from './fake-host-files.ts';
import { cpuTicks, TICK_HZ } from './figures.ts';
import { watchLiveStates } from './live-states.ts';

/** Hex, so the fleet's container ids are ids an agent accepts in a stats request. */
const FLEET_PREFIX = 'f';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface FleetOptions {
  hosts: number;
  perHost: number;
  windowSeconds: number;
  port: number;
  enginePort: number;
}

export interface SteadyFigures {
  /** Berth's CPU over the window, % of one core. */
  cpu: number;
  /** Berth's resident memory, mean of one sample a second, MB. */
  rss: number;
  /** The agents' CPU together (% of one core) and their mean RSS each (MB); NaN without. */
  agentsCpu: number;
  agentRss: number;
}

export interface FleetFigures {
  direct: SteadyFigures;
  /** Berth reading every container's stats through the tunnels (BERTH_STATS_SOURCE=api). */
  agents: SteadyFigures;
  /**
   * The same agents reading their host's files (the default, `auto`), and how many of the
   * fleet's containers had stats from them; a string when this machine could not make the
   * files (fake-host-files.ts says why).
   */
  agentFiles: (SteadyFigures & { fromFiles: number }) | string;
  /** Seconds from the restarted Berth answering /api/health to each agent host online. */
  reconnectFromReady: number[];
  /** The same from the old Berth's exit (the whole outage an agent sees). */
  reconnectFromExit: number[];
  /** Hosts not back online within the wait. */
  notBack: number;
  restartSeconds: number;
}

/**
 * Berth's CPU and memory over a window with one browser watching (the live channel open,
 * so stats poll at the 2 s interval), after a warm-up.
 */
async function steadyWindow(
  berth: BerthProcess,
  agentPids: number[],
  seconds: number,
): Promise<SteadyFigures> {
  const live = watchLiveStates(berth);
  await live.opened;
  await sleep(10_000);
  const pid = berth.child.pid ?? 0;
  const before = { berth: cpuTicks([pid]), agents: cpuTicks(agentPids) };
  const rss: number[] = [];
  const agentRss: number[] = [];
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    rss.push(rssMb(pid).now);
    for (const p of agentPids) agentRss.push(rssMb(p).now);
  }
  const share = (ticks: number) => (ticks / TICK_HZ / seconds) * 100;
  live.close();
  const mean = (xs: number[]) =>
    xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    cpu: share(cpuTicks([pid]) - before.berth),
    rss: mean(rss),
    agentsCpu: agentPids.length === 0 ? NaN : share(cpuTicks(agentPids) - before.agents),
    agentRss: mean(agentRss),
  };
}

/** Containers whose stats came from an agent's files: an empty cgroup's memory is 0 bytes. */
async function countFromFiles(berth: BerthProcess): Promise<number> {
  const { body } = await berth.api('/containers');
  const list = Array.isArray(body) ? (body as { memory_usage?: number | null }[]) : [];
  // The fake engines' Engine API reports at least 64 MiB for every container.
  return list.filter((c) => typeof c.memory_usage === 'number' && c.memory_usage < 2 ** 26).length;
}

async function waitForContainers(berth: BerthProcess, count: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { body } = await berth.api('/containers');
    if (Array.isArray(body) && body.length >= count) return;
    await sleep(200);
  }
  throw new Error(`Berth never listed ${count} containers`);
}

async function stopBerth(berth: BerthProcess): Promise<void> {
  const exited = new Promise((r) => berth.child.once('exit', r));
  berth.stop();
  await exited;
}

/**
 * Restarts Berth and times each agent host back online, polling GET /api/hosts every
 * 100 ms from the moment the new Berth answers.
 */
async function reconnect(
  berth: BerthProcess,
  names: string[],
  env: Record<string, string>,
): Promise<
  Pick<FleetFigures, 'reconnectFromReady' | 'reconnectFromExit' | 'notBack' | 'restartSeconds'>
> {
  const stoppingAt = performance.now();
  const { exitedAt, readyAt } = await berth.restart(env);
  const back = new Map<string, number>();
  while (back.size < names.length && performance.now() - readyAt < 60_000) {
    const { body } = await berth.api('/hosts');
    const at = performance.now();
    for (const h of Array.isArray(body) ? (body as Host[]) : [])
      if (h.status === 'online' && !back.has(h.name)) back.set(h.name, at);
    await sleep(100);
  }
  const times = [...back.values()];
  return {
    reconnectFromReady: times.map((t) => (t - readyAt) / 1000),
    reconnectFromExit: times.map((t) => (t - exitedAt) / 1000),
    notBack: names.length - back.size,
    restartSeconds: (readyAt - stoppingAt) / 1000,
  };
}

export async function runFleet(
  o: FleetOptions,
  say: (line: string) => void,
): Promise<FleetFigures> {
  const socketDir = mkdtempSync(join(tmpdir(), 'berth-bench-engines-'));
  const engines = await startFakeEnginesApart(
    o.hosts,
    o.enginePort,
    o.perHost,
    FLEET_PREFIX,
    socketDir,
    undefined,
    true,
  );
  let files: FakeHostFiles | string;
  try {
    files = makeFakeHostFiles(join(socketDir, 'hosts'), o.hosts, o.perHost, FLEET_PREFIX);
  } catch (err) {
    files = `no host files for the agents (${err instanceof Error ? err.message : String(err)})`;
  }
  try {
    say(`fleet: ${o.hosts} fake engines × ${o.perHost} containers, direct TCP first`);
    const direct = await startBerth(o.port, { BERTH_STATS_SOURCE: 'api' });
    await addEngineHosts(direct, o.hosts, o.enginePort, o.perHost, (i) => ({
      name: `direct-${i}`,
    }));
    await waitForContainers(direct, o.hosts * o.perHost);
    const directFigures = await steadyWindow(direct, [], o.windowSeconds);
    await stopBerth(direct);

    say(`fleet: the same engines behind ${o.hosts} agent processes`);
    const berth = await startBerth(o.port + 1, { BERTH_STATS_SOURCE: 'api' });
    const names = Array.from({ length: o.hosts }, (_, i) => `agent-${i}`);
    const agents = await startAgents(
      berth,
      names.map((_, i) => fakeEngineSocket(socketDir, i)),
      (i) => names[i] ?? '',
      (i) => (typeof files === 'string' ? {} : { BERTH_AGENT_HOST_PROC: files.procDir(i) }),
    );
    try {
      if ((await waitOnline(berth, names, 180_000)) === null)
        throw new Error('The agents did not all come online within 3 minutes');
      await waitForContainers(berth, o.hosts * o.perHost);
      const agentFigures = await steadyWindow(berth, agents.pids(), o.windowSeconds);
      // The restart also turns Berth's stats source back to its default: from here on it asks
      // each agent for its host's readings, one request a pass, instead of 20 API reads.
      say(`fleet: restarting Berth with ${o.hosts} agents connected, stats from their files`);
      const back = await reconnect(berth, names, { BERTH_STATS_SOURCE: 'auto' });
      let agentFiles: FleetFigures['agentFiles'];
      if (typeof files === 'string') agentFiles = files;
      else {
        await waitForContainers(berth, o.hosts * o.perHost);
        const figures = await steadyWindow(berth, agents.pids(), o.windowSeconds);
        agentFiles = { ...figures, fromFiles: await countFromFiles(berth) };
      }
      return { direct: directFigures, agents: agentFigures, agentFiles, ...back };
    } finally {
      await agents.stop();
      await stopBerth(berth);
    }
  } finally {
    await engines.close();
    if (typeof files !== 'string') files.remove();
    rmSync(socketDir, { recursive: true, force: true });
  }
}
