// bench/agents: what Berth's agent costs and how fast it carries a host, side by side with
// the same hosts over direct TCP in one run, each figure against issue 48's target:
//   1. 50 fake engines × 20 containers (fake-engine.ts), watched directly over TCP, then each
//      behind an agent process: Berth's CPU and RSS (target: agents ≤ 1.2× direct), with
//      Berth reading stats through the tunnels, then from the agents' files (fake-host-files);
//   2. one agent with 100 running containers on the rig's plain engine at the 2 s stats
//      interval: the agent's RSS (≤ 60 MB) and CPU (≤ 1 % of a core);
//   3. engine event → Berth's live channel, p95, through the agent and directly (≤ 300 ms);
//   4. the 50 agents back online after a Berth restart, p95 (≤ 5 s);
//   5. 20 stops while a 10 MB log is read through the same way, p95 against 20 stops on an
//      idle connection (≤ 2×).
// The agents are real processes (packages/agent/dist/main.js), as on real hosts; Berth reads
// stats over the Engine API (BERTH_STATS_SOURCE=api), as it must for a direct host it cannot
// see, and in 1's last window as it does by default for agent hosts: one request a pass to
// each agent, which reads its host's cgroup files.
// Needs the rig (`bash scripts/engines.sh up`) and builds of the server and the agent
// (`npm run build && npm run build -w @berth/agent`). Prints figures; asserts nothing; removes
// every container (label berth-bench-agents=1) and process it made. About 6 minutes.
// Usage: node bench/agents.ts [hosts=50] [containersPerHost=20] [windowSeconds=30] [rigContainers=100]
// (or `npm run agents -w @berth/bench`)
import { loadavg } from 'node:os';
import { requireAgentBuild } from './agent-processes.ts';
import { runFleet, type FleetFigures } from './agents-fleet.ts';
import {
  addDirectHost,
  AGENT_HOST,
  agentFootprint,
  DIRECT_HOST,
  eventLatencies,
  plainEngine,
  removeAgentsContainers,
  setUpRig,
  type Footprint,
  type RigSetup,
} from './agents-rig.ts';
import { makeLogContainer, stopsUnderLog, type StopFigures } from './agents-stops.ts';
import { f1, machineSpeedMs, pct } from './figures.ts';
import { docker } from './rig.ts';

const HOSTS = Number(process.argv[2] ?? 50);
const PER_HOST = Number(process.argv[3] ?? 20);
const WINDOW_S = Number(process.argv[4] ?? 30);
const RIG_CONTAINERS = Number(process.argv[5] ?? 100);
const EVENT_ROUNDS = 15;
const STOPS = 20;
const PORT = 18_850;
const ENGINE_PORT = 19_500;

const say = (line: string) => console.log(line);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

interface RigFigures {
  footprint: Footprint;
  events: Map<string, number[]>;
  stops: Map<string, StopFigures>;
}

async function runRig(): Promise<RigFigures> {
  say(`rig: one agent on the plain engine, ${RIG_CONTAINERS} running containers`);
  let rigSetup: RigSetup | undefined;
  try {
    rigSetup = await setUpRig(PORT + 10, RIG_CONTAINERS);
    const footprint = await agentFootprint(rigSetup, WINDOW_S);
    say('rig: the same engine added over TCP; event latencies');
    await addDirectHost(rigSetup, rigSetup.ids);
    const events = await eventLatencies(rigSetup, EVENT_ROUNDS);
    say(`rig: ${STOPS} stops, idle and while a 10 MB log is read, on each host`);
    const stopIds = rigSetup.ids.slice(0, STOPS);
    // The rest go: the stops are timed with only their own stats being read.
    const rest = rigSetup.ids.slice(STOPS);
    if (rest.length > 0) await docker(rigSetup.engine, ['rm', '-f', ...rest]);
    const logId = await makeLogContainer(rigSetup.engine);
    const stops = new Map<string, StopFigures>();
    for (const host of [AGENT_HOST, DIRECT_HOST])
      stops.set(host, await stopsUnderLog(rigSetup, host, stopIds, logId));
    return { footprint, events, stops };
  } finally {
    rigSetup?.live.close();
    await rigSetup?.agent.stop();
    rigSetup?.berth.stop();
    await removeAgentsContainers(plainEngine());
  }
}

function printFleet(f: FleetFigures): void {
  const { direct: d, agents: a } = f;
  say('');
  say(`1. ${HOSTS} hosts × ${PER_HOST} containers, one browser watching, ${WINDOW_S} s window:`);
  say(`   direct TCP: Berth CPU ${f1(d.cpu)} % of a core, RSS ${f1(d.rss)} MB`);
  say(
    `   agents:     Berth CPU ${f1(a.cpu)} % of a core, RSS ${f1(a.rss)} MB; the ${HOSTS} agents ` +
      `together ${f1(a.agentsCpu)} % of a core, ${f1(a.agentRss)} MB RSS each`,
  );
  const files = f.agentFiles;
  if (typeof files === 'string') say(`   agents, stats from their files: not measured, ${files}`);
  else
    say(
      `   agents, stats from their files: Berth CPU ${f1(files.cpu)} % of a core, RSS ` +
        `${f1(files.rss)} MB; the agents together ${f1(files.agentsCpu)} % of a core, ` +
        `${f1(files.agentRss)} MB RSS each; ${files.fromFiles} of ${HOSTS * PER_HOST} ` +
        `containers' stats read from files`,
    );
  say(`4. Berth restart with ${HOSTS} agents: down and up again in ${f1(f.restartSeconds)} s;`);
  say(
    `   back online after Berth answered: p50 ${f1(pct(f.reconnectFromReady, 50))} s, ` +
      `p95 ${f1(pct(f.reconnectFromReady, 95))} s, max ${f1(Math.max(...f.reconnectFromReady))} s` +
      `; after the old Berth exited: p95 ${f1(pct(f.reconnectFromExit, 95))} s` +
      (f.notBack > 0 ? `; ${f.notBack} not back within 60 s` : ''),
  );
}

function printRig(r: RigFigures): void {
  const { footprint: fp } = r;
  say('');
  say(`2. one agent, ${RIG_CONTAINERS} running containers, stats every 2 s, ${WINDOW_S} s window:`);
  say(
    `   agent CPU ${f1(fp.cpu)} % of a core, RSS ${f1(fp.rss)} MB (${f1(fp.anonRss)} MB of it ` +
      `anonymous, the rest file pages; peak ${f1(fp.peakRss)} MB; PSS ${f1(fp.pss)} MB, ` +
      `${f1(fp.pssFile)} MB of it file pages shared with other node processes); ` +
      `Berth ${f1(fp.berthCpu)} % of a core`,
  );
  say(`3. engine event (die, start) → Berth's live channel, ${EVENT_ROUNDS} stops and starts:`);
  for (const [host, ms] of r.events)
    say(
      `   ${host}: p50 ${f1(pct(ms, 50))} ms, p95 ${f1(pct(ms, 95))} ms, max ${f1(Math.max(...ms))} ms`,
    );
  const agentMs = r.events.get(AGENT_HOST) ?? [];
  const together = agentMs.filter((ms, i) => ms === r.events.get(DIRECT_HOST)?.[i]).length;
  say(`   both hosts' change in the same live message: ${together} of ${agentMs.length}`);
  say(`5. stop through Berth's API, ${STOPS} each:`);
  for (const [host, s] of r.stops)
    say(
      `   ${host}: idle p50 ${f1(pct(s.idle, 50))} ms, p95 ${f1(pct(s.idle, 95))} ms; ` +
        `under the log p50 ${f1(pct(s.withLog, 50))} ms, p95 ${f1(pct(s.withLog, 95))} ms; ` +
        `${s.log.reads} log reads of 10 MB (${s.log.failed} refused), ${f1(s.log.meanMs)} ms each, ` +
        `one under way ${f1(s.log.overlap * 100)} % of the stops' time; meanwhile Berth ` +
        `${f1(s.berthCpu)} %, the agent ${f1(s.agentCpu)} % of a core`,
    );
}

function printSummary(f: FleetFigures, r: RigFigures): void {
  const row = (cells: string[]) =>
    say(cells.map((c, i) => c.padEnd([38, 12, 12, 16][i] ?? 0)).join(''));
  say('');
  row(['measure', 'agent', 'direct TCP', 'target', 'verdict']);
  row([
    `1. Berth CPU (% of a core)`,
    f1(f.agents.cpu),
    f1(f.direct.cpu),
    '≤ 1.2× direct',
    `${ratio(f.agents.cpu, f.direct.cpu)} ${verdict(f.agents.cpu <= 1.2 * f.direct.cpu)}`,
  ]);
  if (typeof f.agentFiles !== 'string') {
    const files = f.agentFiles;
    row([
      `1. the same, stats from agents' files`,
      f1(files.cpu),
      f1(f.direct.cpu),
      '≤ 1.2× direct',
      `${ratio(files.cpu, f.direct.cpu)} ${verdict(files.cpu <= 1.2 * f.direct.cpu)}`,
    ]);
  }
  row([
    `1. Berth RSS (MB)`,
    f1(f.agents.rss),
    f1(f.direct.rss),
    '≤ 1.2× direct',
    `${ratio(f.agents.rss, f.direct.rss)} ${verdict(f.agents.rss <= 1.2 * f.direct.rss)}`,
  ]);
  const fp = r.footprint;
  row([
    `2. agent RSS, ${RIG_CONTAINERS} containers (MB)`,
    f1(fp.rss),
    '-',
    '≤ 60 MB',
    verdict(fp.rss <= 60),
  ]);
  row(['2. agent CPU (% of a core)', f1(fp.cpu), '-', '≤ 1 %', verdict(fp.cpu <= 1)]);
  const p95 = (m: Map<string, number[]>, host: string) => pct(m.get(host) ?? [], 95);
  const eventP95 = p95(r.events, AGENT_HOST);
  row([
    '3. event → live channel p95 (ms)',
    f1(eventP95),
    f1(p95(r.events, DIRECT_HOST)),
    '≤ 300 ms',
    verdict(eventP95 <= 300),
  ]);
  const back = pct(f.reconnectFromReady, 95);
  row([
    '4. reconnect after restart p95 (s)',
    f1(back),
    '-',
    '≤ 5 s',
    verdict(back <= 5 && f.notBack === 0),
  ]);
  const stopRatio = (host: string) => {
    const s = r.stops.get(host);
    return s === undefined ? NaN : pct(s.withLog, 95) / pct(s.idle, 95);
  };
  row([
    '5. stop p95 under log / idle',
    `${stopRatio(AGENT_HOST).toFixed(2)}×`,
    `${stopRatio(DIRECT_HOST).toFixed(2)}×`,
    '≤ 2×',
    verdict(stopRatio(AGENT_HOST) <= 2),
  ]);
}

requireAgentBuild();
say(
  `bench/agents: node ${process.version}, ${new Date().toISOString()}, load ${load()}, ` +
    `machine speed ${f1(machineSpeedMs())} ms`,
);
const fleet = await runFleet(
  { hosts: HOSTS, perHost: PER_HOST, windowSeconds: WINDOW_S, port: PORT, enginePort: ENGINE_PORT },
  say,
);
printFleet(fleet);
const rigFigures = await runRig();
printRig(rigFigures);
printSummary(fleet, rigFigures);
say(`\nend: ${new Date().toISOString()}, load ${load()}`);
process.exit(0);
