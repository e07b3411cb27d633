import { CgroupReader, type CgroupTarget } from '@berth/agent/cgroup-files';
import type { Engine } from '../../docker/index.js';
import { sampleFromEngineStats, type EngineStatsJson } from './api-sample.js';
import { SparklineSet } from './ring-buffer.js';
import { computeStats, type ContainerStats, type RawSample } from './stats-sample.js';

/** auto: files when the container's processes are visible here, else the Engine API. */
export type StatsSource = 'auto' | 'files' | 'api';
/** Where a sample came from: files read here, files read by the host's agent, the API. */
export type StatsOrigin = 'files' | 'agent' | 'api';

export type StatsTarget = CgroupTarget;

/**
 * File samples read elsewhere: by the agent next to the host's engine (decision 023). Keyed
 * by short id; a container missing from the answer is read through the Engine API.
 */
export type RemoteFileSamples = (targets: StatsTarget[]) => Promise<Map<string, RawSample>>;

/** API reads in flight per engine: enough for a 2 s cadence without flooding dockerd. */
const API_CONCURRENCY = 16;
const API_TIMEOUT_MS = 5000;
/** Containers sampled from files between two turns of the event loop. */
const FILE_READS_BETWEEN_YIELDS = 25;
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Live stats of one engine's running containers, collected the cheapest exact way
 * (docs/decisions/005): cgroup and /proc files when visible, one-shot API reads otherwise.
 * One collector per engine, shared by every browser.
 */
export class HostStatsCollector {
  private readonly previous = new Map<string, RawSample>();
  private readonly files = new CgroupReader();
  private readonly latest = new Map<string, ContainerStats>();
  private readonly sources = new Map<string, StatsOrigin>();
  readonly sparklines = new Map<string, SparklineSet>();

  constructor(
    private readonly source: StatsSource,
    private readonly machineMemory: () => number,
    /** The host's agent reads its files, when it can (null: read them here or ask the API). */
    private readonly remoteFiles: () => RemoteFileSamples | null = () => null,
  ) {}

  /** Takes one sample of every target; containers that are gone are forgotten. */
  async collect(engine: Engine, targets: StatsTarget[]): Promise<{ failed: number }> {
    const wanted = new Set(targets.map((t) => t.id));
    for (const id of [...this.latest.keys()]) if (!wanted.has(id)) this.forget(id);
    const viaApi: StatsTarget[] = [];
    let failed = 0;
    const remote = this.source === 'api' ? null : this.remoteFiles();
    if (remote !== null) {
      // The agent's reading, or the API for what it could not read (or when it failed).
      const samples = await remote(targets).catch(() => new Map<string, RawSample>());
      for (const target of targets) {
        const sample = samples.get(target.id);
        if (sample === undefined) viaApi.push(target);
        else this.record(target.id, sample, 'agent');
      }
    }
    for (let i = 0; remote === null && i < targets.length; i++) {
      // Reads are synchronous (a few µs each, five per container): a pass over 300 containers
      // would hold every request for tens of milliseconds, so it lets them in between.
      if (i > 0 && i % FILE_READS_BETWEEN_YIELDS === 0) await yieldToRequests();
      const target = targets[i] as StatsTarget;
      const sample = this.source === 'api' ? null : this.files.read(target, this.machineMemory());
      if (sample === null) viaApi.push(target);
      else this.record(target.id, sample, 'files');
    }
    const queue = [...viaApi];
    const worker = async () => {
      for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
        try {
          this.record(t.id, await this.readApi(engine, t), 'api');
        } catch {
          failed++;
        }
      }
    };
    // Each read's request is built synchronously (~0.2 ms in dockerode and node:http), and
    // every engine's pass starts in the same turn: fifty remote engines starting sixteen
    // reads each held every request ~220 ms. One worker per engine per turn keeps it short.
    const workers: Promise<void>[] = [];
    for (let w = 0; w < Math.min(API_CONCURRENCY, queue.length); w++) {
      if (w > 0) await yieldToRequests();
      workers.push(worker());
    }
    await Promise.all(workers);
    return { failed };
  }

  statsOf(id: string): ContainerStats | undefined {
    return this.latest.get(id);
  }

  sourceOf(id: string): StatsOrigin | undefined {
    return this.sources.get(id);
  }

  forget(id: string): void {
    this.previous.delete(id);
    this.files.forget(id);
    this.latest.delete(id);
    this.sources.delete(id);
    this.sparklines.delete(id);
  }

  private record(id: string, sample: RawSample, source: StatsOrigin): void {
    // Samples of two sources have different clocks and formulas: no rate across them.
    if (this.sources.get(id) !== source) this.previous.delete(id);
    const stats = computeStats(this.previous.get(id), sample);
    this.previous.set(id, sample);
    this.latest.set(id, stats);
    this.sources.set(id, source);
    let spark = this.sparklines.get(id);
    if (spark === undefined) this.sparklines.set(id, (spark = new SparklineSet()));
    spark.push(stats.cpu_percent, stats.memory_percent, stats.net_bytes_per_sec);
  }

  private async readApi(engine: Engine, target: StatsTarget): Promise<RawSample> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), API_TIMEOUT_MS);
    try {
      const json = (await engine.containerStats(
        target.fullId,
        controller.signal,
      )) as EngineStatsJson;
      const sample = sampleFromEngineStats(json);
      if (sample.memoryLimit <= 0) sample.memoryLimit = this.machineMemory();
      return sample;
    } finally {
      clearTimeout(timer);
    }
  }
}
