// The host files an agent reads its containers' stats from (decision 023), for fake engines:
// a /proc of its own per engine (the machine's stat and meminfo, and one directory per
// running container with its cgroup and net/dev files), whose cgroup lines point at real,
// empty cgroups made here. An agent pointed at it (BERTH_AGENT_HOST_PROC) answers Berth's
// `POST /v1/container-stats` from kernel files, as on a real host, so bench/agents can measure
// the agent's designed stats path beside the Engine API's. Needs root and cgroupfs.
import { mkdirSync, readFileSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMountinfo } from '@berth/agent/cgroup-files';
import { fakeContainerId, fakeContainerPid } from './fake-engine.ts';

const GROUP = 'berth-bench';

const NET_DEV = [
  'Inter-|   Receive                                                |  Transmit',
  ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
  '    lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0',
  '  eth0:  123456     100    0    0    0     0          0         0    65432      90    0    0    0     0       0          0',
  '',
].join('\n');

export interface FakeHostFiles {
  /** The /proc to give engine i's agent. */
  procDir: (engine: number) => string;
  /** Removes the cgroups and the folders. */
  remove: () => void;
}

/**
 * Files for `engines` fake engines of `perEngine` running containers each, labelled as
 * startFakeEnginesApart labels them (`prefix` + engine index). Throws with the reason when
 * this machine will not make cgroups.
 */
export function makeFakeHostFiles(
  dir: string,
  engines: number,
  perEngine: number,
  prefix: string,
): FakeHostFiles {
  const mounts = parseMountinfo(readFileSync('/proc/self/mountinfo', 'utf8'));
  const v1 = ['cpuacct', 'memory', 'blkio'].map((c) => [c, mounts.v1.get(c)] as const);
  const roots =
    mounts.v2 !== null && v1.some(([, m]) => m === undefined)
      ? [join(mounts.v2, GROUP)]
      : v1.flatMap(([, m]) => (m === undefined ? [] : [join(m, GROUP)]));
  if (roots.length === 0) throw new Error('no cgroup mounts here');
  const cgroupText = (id: string) =>
    mounts.v2 !== null && roots.length === 1
      ? `0::/${GROUP}/${id}\n`
      : v1.map(([c], n) => `${n + 2}:${c}:/${GROUP}/${id}`).join('\n') + '\n';
  const made: string[] = [];
  const remove = () => {
    for (const group of made.reverse()) rmdirSync(group);
    for (const root of roots) rmdirSync(root);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const root of roots) mkdirSync(root, { recursive: true });
    for (let e = 0; e < engines; e++) {
      const proc = join(dir, `proc-${e}`);
      mkdirSync(proc, { recursive: true });
      for (const file of ['stat', 'meminfo']) symlinkSync(`/proc/${file}`, join(proc, file));
      for (let c = 0; c < perEngine; c++) {
        const id = fakeContainerId(`${prefix}${e}`, c);
        for (const root of roots) {
          mkdirSync(join(root, id));
          made.push(join(root, id));
        }
        const pidDir = join(proc, String(fakeContainerPid(c)));
        mkdirSync(join(pidDir, 'net'), { recursive: true });
        writeFileSync(join(pidDir, 'cgroup'), cgroupText(id));
        writeFileSync(join(pidDir, 'net', 'dev'), NET_DEV);
      }
    }
  } catch (err) {
    remove();
    throw err;
  }
  return { procDir: (e) => join(dir, `proc-${e}`), remove };
}
