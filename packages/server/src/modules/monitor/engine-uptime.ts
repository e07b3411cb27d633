import { readdir, readFile, readlink, realpath } from 'node:fs/promises';
import type { HostUptimeSource } from '@berth/contracts';
import type { EngineContainer } from './engine-container.js';

// When did the engine start? The Engine API does not say, so Berth asks the kernel about
// the process that owns the engine's listening socket when that socket is on this machine
// (a unix socket, or TCP on loopback), and otherwise falls back to the oldest running
// container, which can only have started after its engine did.

export interface EngineUptime {
  started_at: string | null;
  source: HostUptimeSource | null;
  /** What the figure means, or why there is none (shown as the uptime's tooltip). */
  note: string;
}

/** USER_HZ: the unit of /proc/PID/stat's start time, 100 on every Linux ABI Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
const LISTENING_UNIX = '00010000';
const TCP_LISTEN = '0A';

/** Where the engine listens, if this machine's /proc can tell who owns it. */
function localSocketOf(
  url: string,
): { kind: 'unix'; path: string } | { kind: 'tcp'; port: number } | null {
  if (url.startsWith('unix://')) return { kind: 'unix', path: url.slice('unix://'.length) };
  const m = /^(?:tcp|http|https):\/\/(127\.0\.0\.1|localhost|\[::1\])(?::(\d+))?/.exec(url);
  if (m === null) return null;
  return { kind: 'tcp', port: Number(m[2] ?? (url.startsWith('https') ? 2376 : 2375)) };
}

async function unixSocketInodes(path: string): Promise<Set<string>> {
  const paths = new Set([path]);
  const real = await realpath(path).catch(() => path);
  paths.add(real);
  // /var/run is usually a link to /run, and the kernel keeps the path the engine bound.
  for (const p of [...paths]) {
    if (p.startsWith('/var/run/')) paths.add(p.slice('/var'.length));
    else if (p.startsWith('/run/')) paths.add(`/var${p}`);
  }
  const inodes = new Set<string>();
  for (const line of (await readFile('/proc/net/unix', 'utf8')).split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length >= 8 && f[3] === LISTENING_UNIX && paths.has(f[7] ?? '')) inodes.add(f[6] ?? '');
  }
  return inodes;
}

async function tcpSocketInodes(port: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length >= 10 && f[3] === TCP_LISTEN && f[1]?.endsWith(`:${hexPort}`))
        inodes.add(f[9] ?? '');
    }
  }
  return inodes;
}

/** The pid among `candidates` holding one of the socket inodes, or null. */
async function ownerOf(inodes: Set<string>, candidates: number[]): Promise<number | null> {
  const wanted = new Set([...inodes].map((i) => `socket:[${i}]`));
  for (const pid of candidates) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    const targets = await Promise.all(
      fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')),
    );
    if (targets.some((target) => wanted.has(target))) return pid;
  }
  return null;
}

/** How long one scan of /proc for dockerd processes serves every engine that connects. */
const PID_SCAN_TTL_MS = 30_000;
let pidScan: { at: number; pids: Promise<number[]> } | null = null;

/**
 * Processes named dockerd: only their descriptors are searched, not every process's. Reading
 * every /proc/PID/comm takes ~150 ms on a busy machine, so fifty engines connecting at once
 * share one scan; an engine started since is found once the scan is older than 30 s.
 */
function dockerdPids(): Promise<number[]> {
  const now = Date.now();
  if (pidScan === null || now - pidScan.at > PID_SCAN_TTL_MS)
    pidScan = { at: now, pids: scanDockerdPids() };
  return pidScan.pids;
}

async function scanDockerdPids(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === 'dockerd') pids.push(Number(entry));
  }
  return pids;
}

/** Start of a process as a wall-clock time: boot time plus its start in clock ticks. */
export async function processStartedAt(pid: number): Promise<Date> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name is in parentheses and may hold spaces; fields resume after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const startTicks = Number(fields[19]); // field 22 of proc(5), the 20th after the name
  const btime = /^btime (\d+)$/m.exec(await readFile('/proc/stat', 'utf8'));
  if (btime === null || !Number.isFinite(startTicks)) throw new Error('unreadable /proc');
  return new Date((Number(btime[1]) + startTicks / CLOCK_TICKS_PER_SECOND) * 1000);
}

/**
 * The start of the engine process listening at `url` on this machine, or null when the
 * socket is not local or its owner cannot be seen (another pid namespace, no permission).
 */
export async function localDaemonStart(url: string): Promise<{ at: Date; pid: number } | null> {
  const socket = localSocketOf(url);
  if (socket === null) return null;
  try {
    const inodes =
      socket.kind === 'unix'
        ? await unixSocketInodes(socket.path)
        : await tcpSocketInodes(socket.port);
    if (inodes.size === 0) return null;
    const pid = await ownerOf(inodes, await dockerdPids());
    if (pid === null) return null;
    return { at: await processStartedAt(pid), pid };
  } catch {
    return null;
  }
}

/** The uptime without a readable process: a lower bound from the oldest running container. */
export function uptimeFromContainers(
  containers: Iterable<Readonly<EngineContainer>>,
): EngineUptime {
  let oldest: string | null = null;
  for (const c of containers) {
    if (c.state !== 'running' || c.startedAt === null) continue;
    if (oldest === null || Date.parse(c.startedAt) < Date.parse(oldest)) oldest = c.startedAt;
  }
  if (oldest === null)
    return {
      started_at: null,
      source: null,
      note: 'Unknown: the engine does not report its start time and runs no container to date it by',
    };
  return {
    started_at: oldest,
    source: 'oldest_container',
    note: 'At least: the engine has been up since its oldest running container started',
  };
}

export function uptimeFromProcess(found: { at: Date; pid: number }): EngineUptime {
  return {
    started_at: found.at.toISOString(),
    source: 'daemon_process',
    note: `Start of the engine process (dockerd, pid ${found.pid}) on this machine`,
  };
}
