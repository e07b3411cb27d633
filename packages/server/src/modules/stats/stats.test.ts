import { describe, expect, it } from 'vitest';
import { sampleFromEngineStats } from './api-sample.js';
import {
  parseBlkioServiceBytes,
  parseIoStat,
  parseMountinfo,
  parseNetDev,
  parseProcCgroup,
} from '@berth/agent/cgroup-files';
import { SparklineSet } from './ring-buffer.js';
import { computeStats, type RawSample } from './stats-sample.js';

const sample = (over: Partial<RawSample>): RawSample => ({
  atNs: 0n,
  cpuNs: 0n,
  memoryBytes: 0,
  memoryLimit: 1000,
  rxBytes: 0,
  txBytes: 0,
  ...over,
});

describe('computeStats', () => {
  it('gives CPU time over wall time for file samples', () => {
    const s = computeStats(
      sample({}),
      sample({ atNs: 2_000_000_000n, cpuNs: 1_000_000_000n, memoryBytes: 250 }),
    );
    expect(s.cpu_percent).toBe(50);
    expect(s.memory_percent).toBe(25);
  });

  it('follows docker stats with the machine CPU total for API samples', () => {
    const prev = sample({ systemCpuNs: 0n, onlineCpus: 2 });
    const next = sample({ atNs: 1n, cpuNs: 500n, systemCpuNs: 2000n, onlineCpus: 2 });
    expect(computeStats(prev, next).cpu_percent).toBe(50);
  });

  it('reads a counter that went backwards as zero, and a rate per second', () => {
    const prev = sample({ cpuNs: 900n, rxBytes: 100, txBytes: 100 });
    const next = sample({ atNs: 2_000_000_000n, cpuNs: 100n, rxBytes: 1100, txBytes: 1100 });
    const s = computeStats(prev, next);
    expect(s.cpu_percent).toBe(0);
    expect(s.net_bytes_per_sec).toBe(1000);
  });
});

describe('file parsers', () => {
  it('finds v1 controllers and the v2 mount in mountinfo', () => {
    const m = parseMountinfo(
      [
        '30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory',
        '31 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:10 - cgroup cgroup rw,cpu,cpuacct',
        '32 25 0:28 / /sys/fs/cgroup/unified rw,relatime shared:11 - cgroup2 cgroup2 rw',
      ].join('\n'),
    );
    expect(m.v1.get('memory')).toBe('/sys/fs/cgroup/memory');
    expect(m.v1.get('cpuacct')).toBe('/sys/fs/cgroup/cpu,cpuacct');
    expect(m.v2).toBe('/sys/fs/cgroup/unified');
  });

  it('reads /proc/<pid>/cgroup in both versions', () => {
    const p = parseProcCgroup(
      '4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/system.slice/docker-abc.scope\n',
    );
    expect(p.get('memory')).toBe('/docker/abc');
    expect(p.get('cpuacct')).toBe('/docker/abc');
    expect(p.get('')).toBe('/system.slice/docker-abc.scope');
  });

  it('sums every interface but lo', () => {
    const dev = [
      'Inter-|   Receive                                                |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
      '    lo:    500       5    0    0    0     0          0         0      500       5    0    0    0     0       0          0',
      '  eth0:   1200      10    0    0    0     0          0         0      3400      20    0    0    0     0       0          0',
    ].join('\n');
    expect(parseNetDev(dev)).toEqual({ rx: 1200, tx: 3400 });
  });

  it('sums block bytes over devices from io.stat (v2) and blkio (v1)', () => {
    const v2 = [
      '8:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0',
      '253:0 rbytes=100 wbytes=0 rios=1 wios=0 dbytes=0 dios=0',
      '',
    ].join('\n');
    expect(parseIoStat(v2)).toEqual({ read: 4196, write: 8192 });
    const v1 = [
      '254:0 Read 10',
      '254:0 Write 20992000',
      '254:0 Sync 20992000',
      '254:0 Async 0',
      '254:0 Total 20992010',
      '8:0 Read 5',
      'Total 20992015',
      '',
    ].join('\n');
    expect(parseBlkioServiceBytes(v1)).toEqual({ read: 15, write: 20_992_000 });
    expect(parseBlkioServiceBytes('Total 0\n')).toEqual({ read: 0, write: 0 });
  });

  it('takes working-set memory and non-lo traffic from an Engine API answer', () => {
    const s = sampleFromEngineStats({
      read: '2026-11-22T10:00:00Z',
      cpu_stats: { cpu_usage: { total_usage: 10 }, system_cpu_usage: 100, online_cpus: 2 },
      memory_stats: { usage: 5000, limit: 10000, stats: { total_inactive_file: 1000 } },
      networks: { eth0: { rx_bytes: 7, tx_bytes: 9 }, lo: { rx_bytes: 100, tx_bytes: 100 } },
    });
    expect(s).toMatchObject({
      memoryBytes: 4000,
      memoryLimit: 10000,
      rxBytes: 7,
      txBytes: 9,
      onlineCpus: 2,
    });
    expect(s.blockReadBytes).toBeUndefined();
  });

  it('sums block bytes of an Engine API answer in either cgroup version', () => {
    const v1 = sampleFromEngineStats({
      blkio_stats: {
        io_service_bytes_recursive: [
          { op: 'Read', value: 3 },
          { op: 'Write', value: 7 },
          { op: 'Total', value: 10 },
          { op: 'Write', value: 1 },
        ],
      },
    });
    expect(v1).toMatchObject({ blockReadBytes: 3, blockWriteBytes: 8 });
    const v2 = sampleFromEngineStats({
      blkio_stats: {
        io_service_bytes_recursive: [
          { op: 'read', value: 5 },
          { op: 'write', value: 9 },
        ],
      },
    });
    expect(v2).toMatchObject({ blockReadBytes: 5, blockWriteBytes: 9 });
    // The engine leaves an empty list out: nothing read or written yet.
    const idle = sampleFromEngineStats({ blkio_stats: { io_service_bytes_recursive: null } });
    expect(idle).toMatchObject({ blockReadBytes: 0, blockWriteBytes: 0 });
  });
});

describe('SparklineSet', () => {
  it('keeps the newest 30 points', () => {
    const set = new SparklineSet();
    for (let i = 0; i < 40; i++) set.push(i, i, i);
    expect(set.toJSON().cpu).toHaveLength(30);
    expect(set.toJSON().cpu[0]).toBe(10);
  });
});
