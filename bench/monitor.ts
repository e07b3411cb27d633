// bench/monitor: what watching 3 hosts × N running containers costs, against `docker stats`.
// Needs the rig (`bash scripts/engines.sh up`) and a build (`npm run build`). Prints figures;
// asserts nothing. Usage: node bench/monitor.ts [containersPerEngine=100] [windowSeconds=30]
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import {
  applyContainersUpdate,
  type Container,
  type ContainersUpdate,
  type LiveContainersState,
} from '@berth/contracts';
import {
  BENCH_LABEL,
  docker,
  ensureBenchContainers,
  f1,
  pct,
  removeBenchContainers,
  rig,
  startBerthWithRig,
  type Engine,
} from './rig.ts';
import { timeAnswer } from './berth-process.ts';
import { specLiveLine, watchSpecLive } from './spec-live.ts';
import { cpuTicks, TICK_HZ } from './figures.ts';

const run = promisify(execFile);
const PER_ENGINE = Number(process.argv[2] ?? 100);
const WINDOW_S = Number(process.argv[3] ?? 30);
const PORT = 18_700;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** dockerd, its containerd and the shims of that containerd: the engine's processes. */
function enginePids(engine: Engine): number[] {
  const local = engine.name === 'local';
  const dockerdPid = readFileSync(
    local ? '/var/run/docker.pid' : `/run/berth-rig-${engine.name}/docker.pid`,
    'utf8',
  ).trim();
  const sock = local
    ? '/var/run/docker/containerd/containerd.sock'
    : `/run/berth-rig-${engine.name}/exec/containerd/containerd.sock`;
  const pids = [Number(dockerdPid)];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes('containerd') && cmd.includes(sock.replace('/containerd.sock', '')))
        pids.push(Number(entry));
      else if (local && cmd.startsWith('containerd --config /var/run/docker/containerd/'))
        pids.push(Number(entry));
    } catch {
      // process ended
    }
  }
  return [...new Set(pids)];
}

/** CPU in % of one core of each process group over `seconds`. */
async function measureCpu(
  groups: Record<string, () => number[]>,
  seconds: number,
): Promise<Record<string, number>> {
  const pidsOf = Object.fromEntries(Object.entries(groups).map(([k, f]) => [k, f()]));
  const before = Object.fromEntries(Object.entries(pidsOf).map(([k, p]) => [k, cpuTicks(p)]));
  await sleep(seconds * 1000);
  return Object.fromEntries(
    Object.entries(pidsOf).map(([k, p]) => [
      k,
      ((cpuTicks(p) - (before[k] ?? 0)) / TICK_HZ / seconds) * 100,
    ]),
  );
}

async function startContainers(): Promise<void> {
  for (const e of rig.engines) await ensureBenchContainers(e, PER_ENGINE, 'running');
}

async function main(): Promise<void> {
  console.log(
    `bench/monitor: 3 engines × ${PER_ENGINE} running containers, ${WINDOW_S} s windows, node ${process.version}`,
  );
  await startContainers();
  const engineGroups = Object.fromEntries(rig.engines.map((e) => [e.name, () => enginePids(e)]));
  await sleep(5000);
  const baseline = await measureCpu(engineGroups, WINDOW_S);

  // One busy container whose CPU both Berth and `docker stats` report.
  const localEngine = rig.engines.find((e) => e.name === 'local') ?? rig.engines[0];
  const busyId = localEngine
    ? (
        await docker(localEngine, [
          'run',
          '-d',
          '--label',
          BENCH_LABEL,
          rig.images.busybox,
          'sh',
          '-c',
          'yes > /dev/null',
        ])
      ).stdout
        .trim()
        .slice(0, 12)
    : '';
  const berth = await startBerthWithRig(PORT);
  const specLive = watchSpecLive(`http://127.0.0.1:${PORT}`, berth.cookie);
  // Berth's browser opts in to containers_update as deltas (docs/decisions/015).
  const ws = new WebSocket(`ws://127.0.0.1:${PORT}/ws/?protocol=2`, {
    headers: { cookie: berth.cookie },
  });
  // containers_update is a delta after the first (docs/decisions/010): applied as a browser does.
  const updates: { at: number; size: number; full: boolean; containers: Container[] }[] = [];
  let live: LiveContainersState | null = null;
  ws.onmessage = (ev) => {
    const text = String(ev.data);
    if (!text.startsWith('{"type":"containers_update"')) return;
    const msg = JSON.parse(text) as { data: ContainersUpdate };
    live = applyContainersUpdate(live, msg.data);
    if (live === null) ws.send(JSON.stringify({ type: 'containers_resync' }));
    else
      updates.push({
        at: Date.now(),
        size: Buffer.byteLength(text),
        full: msg.data.full,
        containers: live.containers,
      });
  };
  await sleep(10_000); // warm-up: connections, first stats samples
  specLive.start();
  const berthPid = berth.child.pid ?? 0;
  const withBerth = await measureCpu({ ...engineGroups, berth: () => [berthPid] }, WINDOW_S);
  const rssMb =
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${berthPid}/status`, 'utf8'))?.[1]) / 1024;
  const lastUpdate = updates.at(-1);
  const specTraffic = specLive.stop();
  specLive.close();

  // As a browser receives it (timeAnswer): Node's fetch would add its own decompression.
  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) latencies.push((await timeAnswer(berth, '/containers')).ms);

  // State change to browser: a stop made with the CLI until a containers_update shows it.
  const local = rig.engines.find((e) => e.name === 'plain') ?? rig.engines[0];
  const pushLatencies: number[] = [];
  for (let i = 0; i < 10 && local; i++) {
    const { stdout } = await docker(local, [
      'run',
      '-d',
      '--label',
      BENCH_LABEL,
      rig.images.busybox,
      'sleep',
      '36000',
    ]);
    const id = stdout.trim().slice(0, 12);
    await sleep(300);
    const t0 = Date.now();
    await docker(local, ['kill', id]);
    const t1 = Date.now();
    for (let w = 0; w < 100; w++) {
      const hit = updates.find(
        (u) => u.at >= t0 && u.containers.some((c) => c.id === id && c.state === 'exited'),
      );
      if (hit) {
        pushLatencies.push(hit.at - t1);
        break;
      }
      await sleep(10);
    }
  }

  // Agreement with the engine's own figures for one container.
  const sample = { data: { containers: lastUpdate?.containers ?? [] } };
  const one = sample.data.containers.find(
    (c) => c.host_name === 'bench-local' && c.memory_usage !== null && c.id !== busyId,
  );
  const berthBusy = updates.at(-1)?.containers.find((c) => c.id === busyId)?.cpu_percent;
  const cliBusy = localEngine
    ? (
        await docker(localEngine, ['stats', '--no-stream', '--format', '{{.CPUPerc}}', busyId])
      ).stdout.trim()
    : '';
  ws.close();
  const exited = new Promise((r) => berth.child.once('exit', r));
  berth.stop();
  await exited;

  const statsProcs = rig.engines.map((e) =>
    spawn('docker', ['-H', e.socket, 'stats', '--format', '{{.ID}} {{.CPUPerc}} {{.MemUsage}}'], {
      stdio: ['ignore', 'ignore', 'ignore'],
    }),
  );
  await sleep(10_000);
  const withStats = await measureCpu(
    { ...engineGroups, cli: () => statsProcs.map((p) => p.pid ?? 0) },
    WINDOW_S,
  );
  statsProcs.forEach((p) => p.kill());
  let engineMemory = NaN;
  if (one) {
    const localEngine = rig.engines.find((e) => e.name === 'local');
    if (localEngine) {
      const raw = JSON.parse(
        (
          await run('curl', [
            '-s',
            '--unix-socket',
            localEngine.socket.replace('unix://', ''),
            `http://d/containers/${one.id}/stats?stream=false`,
          ])
        ).stdout,
      ) as { memory_stats: { usage: number; stats: Record<string, number> } };
      engineMemory =
        raw.memory_stats.usage -
        (raw.memory_stats.stats.total_inactive_file ?? raw.memory_stats.stats.inactive_file ?? 0);
    }
  }
  if (!process.argv.includes('--keep')) await removeBenchContainers();

  const deltas = updates.filter((u) => !u.full);
  const deltaBytes = deltas.reduce((n, u) => n + u.size, 0);
  const deltaSpanS = ((deltas.at(-1)?.at ?? 0) - (deltas[0]?.at ?? 0)) / 1000;
  console.log(
    `Berth: CPU ${f1(withBerth.berth ?? NaN)} % of one core, RSS ${f1(rssMb)} MB (targets < 10 %, < 200 MB)`,
  );
  console.log(
    `containers_update: full ${((updates.find((u) => u.full)?.size ?? 0) / 1024).toFixed(1)} KB, deltas ${(deltaBytes / Math.max(1, deltas.length) / 1024).toFixed(1)} KB on average (${(deltaBytes / 1024 / Math.max(1, deltaSpanS)).toFixed(1)} KB/s) for ${sample.data.containers.length} containers`,
  );
  console.log(specLiveLine(specTraffic));
  console.log(
    `GET /api/containers: p50 ${f1(pct(latencies, 50))} ms, p95 ${f1(pct(latencies, 95))} ms (target p95 < 20 ms)`,
  );
  console.log(
    `state change to browser: p50 ${pct(pushLatencies, 50)} ms, p95 ${pct(pushLatencies, 95)} ms over ${pushLatencies.length} (target p95 < 500 ms)`,
  );
  for (const e of rig.engines) {
    const b = baseline[e.name] ?? 0;
    const berthCost = (withBerth[e.name] ?? 0) - b;
    const statsCost = (withStats[e.name] ?? 0) - b;
    console.log(
      `engine ${e.name}: baseline ${f1(b)} %, monitoring by Berth +${f1(berthCost)} %, by docker stats +${f1(statsCost)} %, ratio ${f1((berthCost / statsCost) * 100)} %`,
    );
  }
  console.log(`docker stats CLI itself: ${f1(withStats.cli ?? NaN)} % of one core`);
  if (one)
    console.log(`memory of ${one.id}: Berth ${one.memory_usage} B, engine ${engineMemory} B`);
  console.log(`busy container CPU: Berth ${String(berthBusy)} %, docker stats ${cliBusy}`);
}

await main();
