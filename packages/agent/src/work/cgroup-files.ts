import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Container counters from the cgroup and /proc files (decision 005): Berth reads them for the
// engines on its own machine, and an agent for its host's engine (decision 023), with this one
// copy of the code.

/**
 * One raw reading of a container's counters, whatever the source (cgroup files or the
 * Engine API). Rates and percentages come from two consecutive samples.
 */
export interface RawSample {
  /** Monotonic wall clock of the reading, in nanoseconds. */
  atNs: bigint;
  /** Cumulative CPU time of the container, nanoseconds. */
  cpuNs: bigint;
  /** Cumulative CPU time of the whole machine, nanoseconds (API samples only). */
  systemCpuNs?: bigint | undefined;
  /** CPUs the container may use (for the API formula). */
  onlineCpus?: number | undefined;
  /** Working set: usage minus inactive file cache, bytes. */
  memoryBytes: number;
  /** The memory limit, or the machine's memory when unlimited. */
  memoryLimit: number;
  /** Cumulative bytes over every interface except lo. */
  rxBytes: number;
  txBytes: number;
  /** Cumulative bytes read from and written to block devices (undefined: not readable here). */
  blockReadBytes?: number | undefined;
  blockWriteBytes?: number | undefined;
}

/** Where one container's counters live, resolved from /proc/<pid>/cgroup. */
export interface CgroupLocation {
  version: 1 | 2;
  pid: number;
  /** v1: cpuacct directory; v2: the unified directory. */
  cpuDir: string;
  /** v1: memory directory; v2: the unified directory. */
  memoryDir: string;
  /** v1: blkio directory (absent when that controller is not mounted); v2: the unified one. */
  blkioDir?: string | undefined;
}

/** Parsed /proc/self/mountinfo: v1 controller → mount point, and the v2 mount. */
export interface CgroupMounts {
  v1: Map<string, string>;
  v2: string | null;
}

export function parseMountinfo(text: string): CgroupMounts {
  const v1 = new Map<string, string>();
  let v2: string | null = null;
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const mountPoint = left.split(' ')[4];
    const [fsType, , superOptions] = right.split(' ');
    if (mountPoint === undefined) continue;
    if (fsType === 'cgroup2') v2 = mountPoint;
    if (fsType === 'cgroup' && superOptions !== undefined) {
      for (const option of superOptions.split(',')) v1.set(option, mountPoint);
    }
  }
  return { v1, v2 };
}

/** Parsed /proc/<pid>/cgroup: controller → path ('' for the v2 line). */
export function parseProcCgroup(text: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.trim().split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    for (const controller of match[1].split(',')) paths.set(controller, match[2]);
  }
  return paths;
}

/**
 * The counters of the container whose init process is `pid`, or null when that process
 * is not visible here or does not belong to the container (another PID namespace).
 */
export function locateCgroup(
  mounts: CgroupMounts,
  pid: number,
  containerId: string,
  procRoot = '/proc',
): CgroupLocation | null {
  let text: string;
  try {
    text = readFileSync(join(procRoot, String(pid), 'cgroup'), 'utf8');
  } catch {
    return null;
  }
  const paths = parseProcCgroup(text);
  const cpuPath = paths.get('cpuacct');
  const memoryPath = paths.get('memory');
  const cpuMount = mounts.v1.get('cpuacct');
  const memoryMount = mounts.v1.get('memory');
  if (cpuPath && memoryPath && cpuMount && memoryMount) {
    if (!cpuPath.includes(containerId) || !memoryPath.includes(containerId)) return null;
    const blkioPath = paths.get('blkio');
    const blkioMount = mounts.v1.get('blkio');
    return {
      version: 1,
      pid,
      cpuDir: join(cpuMount, cpuPath),
      memoryDir: join(memoryMount, memoryPath),
      blkioDir: blkioPath && blkioMount ? join(blkioMount, blkioPath) : undefined,
    };
  }
  const unified = paths.get('');
  if (unified !== undefined && mounts.v2 !== null && unified.includes(containerId)) {
    const dir = join(mounts.v2, unified);
    return { version: 2, pid, cpuDir: dir, memoryDir: dir, blkioDir: dir };
  }
  return null;
}

/** `key value` lines (memory.stat, cpu.stat) as numbers. */
export function parseKeyValues(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const [key, value] = line.split(' ');
    if (key && value !== undefined) values.set(key, Number(value));
  }
  return values;
}

/** rx and tx bytes summed over every interface but lo, from /proc/<pid>/net/dev. */
export function parseNetDev(text: string): { rx: number; tx: number } {
  let rx = 0;
  let tx = 0;
  for (const line of text.split('\n').slice(2)) {
    const [name, rest] = line.split(':');
    if (rest === undefined || name === undefined || name.trim() === 'lo') continue;
    const fields = rest.trim().split(/\s+/).map(Number);
    rx += fields[0] ?? 0;
    tx += fields[8] ?? 0;
  }
  return { rx, tx };
}

/** Bytes read and written over every device, from cgroup v2 `io.stat` (`8:0 rbytes=1 wbytes=2 …`). */
export function parseIoStat(text: string): { read: number; write: number } {
  let read = 0;
  let write = 0;
  for (const line of text.split('\n')) {
    for (const field of line.split(' ').slice(1)) {
      const [key, value] = field.split('=');
      if (key === 'rbytes') read += Number(value) || 0;
      if (key === 'wbytes') write += Number(value) || 0;
    }
  }
  return { read, write };
}

/** The same from cgroup v1 `blkio.*io_service_bytes_recursive` (`8:0 Read 1`, `8:0 Write 2`). */
export function parseBlkioServiceBytes(text: string): { read: number; write: number } {
  let read = 0;
  let write = 0;
  for (const line of text.split('\n')) {
    const [device, op, value] = line.trim().split(' ');
    // `Total n` closes the file: a sum of the lines above, not a device.
    if (device === undefined || op === undefined || value === undefined) continue;
    if (op === 'Read') read += Number(value) || 0;
    if (op === 'Write') write += Number(value) || 0;
  }
  return { read, write };
}

/**
 * A container's block counters, or undefined when its files are not there (a v1 host without
 * the blkio controller, a v2 one without io enabled): the rest of the sample still counts.
 * v1: the CFQ/BFQ file when it has lines, else the throttle one, as `docker stats` reads them.
 */
function readBlock(loc: CgroupLocation): { read: number; write: number } | undefined {
  const dir = loc.blkioDir;
  if (dir === undefined) return undefined;
  const text = (file: string) => {
    try {
      return readFileSync(join(dir, file), 'utf8');
    } catch {
      return null;
    }
  };
  if (loc.version === 2) {
    const stat = text('io.stat');
    return stat === null ? undefined : parseIoStat(stat);
  }
  const scheduler = text('blkio.io_service_bytes_recursive');
  if (scheduler !== null && / (Read|Write) /.test(scheduler))
    return parseBlkioServiceBytes(scheduler);
  const throttle = text('blkio.throttle.io_service_bytes_recursive');
  return throttle === null ? undefined : parseBlkioServiceBytes(throttle);
}

const UNLIMITED = 2 ** 60;

/** Reads one sample from the cgroup and /proc files; throws when the container is gone. */
export function readCgroupSample(
  loc: CgroupLocation,
  machineMemory: number,
  procRoot = '/proc',
): RawSample {
  const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
  const atNs = process.hrtime.bigint();
  let cpuNs: bigint;
  let usage: number;
  let inactive: number;
  let limit: number;
  if (loc.version === 1) {
    cpuNs = BigInt(read(loc.cpuDir, 'cpuacct.usage').trim());
    usage = Number(read(loc.memoryDir, 'memory.usage_in_bytes'));
    inactive = parseKeyValues(read(loc.memoryDir, 'memory.stat')).get('total_inactive_file') ?? 0;
    limit = Number(read(loc.memoryDir, 'memory.limit_in_bytes'));
  } else {
    const usec = parseKeyValues(read(loc.cpuDir, 'cpu.stat')).get('usage_usec') ?? 0;
    cpuNs = BigInt(usec) * 1000n;
    usage = Number(read(loc.memoryDir, 'memory.current'));
    inactive = parseKeyValues(read(loc.memoryDir, 'memory.stat')).get('inactive_file') ?? 0;
    const max = read(loc.memoryDir, 'memory.max').trim();
    limit = max === 'max' ? UNLIMITED : Number(max);
  }
  const net = parseNetDev(readFileSync(join(procRoot, String(loc.pid), 'net', 'dev'), 'utf8'));
  const block = readBlock(loc);
  return {
    atNs,
    cpuNs,
    memoryBytes: Math.max(0, usage - inactive),
    memoryLimit: limit >= UNLIMITED || limit <= 0 ? machineMemory : Math.min(limit, machineMemory),
    rxBytes: net.rx,
    txBytes: net.tx,
    blockReadBytes: block?.read,
    blockWriteBytes: block?.write,
  };
}

let cachedMounts: CgroupMounts | null | undefined;
/** The cgroup mounts this process sees (read once): where the counters' directories are. */
export function ownCgroupMounts(): CgroupMounts | null {
  if (cachedMounts === undefined) {
    try {
      cachedMounts = parseMountinfo(readFileSync('/proc/self/mountinfo', 'utf8'));
    } catch {
      cachedMounts = null;
    }
  }
  return cachedMounts;
}

/** A running container as its engine describes it: short id, full id, init PID. */
export interface CgroupTarget {
  id: string;
  fullId: string;
  pid: number;
}

/**
 * Samples containers from their files, keeping each one's location until its init PID
 * changes (a restart) or a read fails.
 */
export class CgroupReader {
  private readonly locations = new Map<string, CgroupLocation>();

  constructor(
    private readonly mounts: () => CgroupMounts | null = ownCgroupMounts,
    /** The /proc whose PIDs the engine reports (the host's, for an agent in a container). */
    private readonly procRoot = '/proc',
  ) {}

  /** A file sample, or null when this container's files are not visible from here. */
  read(target: CgroupTarget, machineMemory: number): RawSample | null {
    const mounts = this.mounts();
    if (mounts === null || target.pid <= 0) return null;
    let loc = this.locations.get(target.id);
    if (loc?.pid !== target.pid) {
      // A restart gives the container a new init PID: resolve again.
      const found = locateCgroup(mounts, target.pid, target.fullId, this.procRoot);
      if (found === null) return null;
      this.locations.set(target.id, (loc = found));
    }
    try {
      return readCgroupSample(loc, machineMemory, this.procRoot);
    } catch {
      this.locations.delete(target.id);
      return null;
    }
  }

  forget(id: string): void {
    this.locations.delete(id);
  }
}
