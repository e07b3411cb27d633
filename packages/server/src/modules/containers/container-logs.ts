import type { ContainerLogsResponse } from '@berth/contracts';
import { conflict, notFound, tooManyRequests } from '../../platform/http-errors.js';
import type { Fleet } from '../monitor/index.js';
import { LogFrameReader } from './log-frames.js';

/** A viewer polls every 2 s; this allows bursts (tail changes, manual refresh) but not floods. */
const WINDOW_MS = 10_000;
const MAX_PER_WINDOW = 20;

/** Reads container logs from the engine, one bounded request at a time per viewer. */
export class ContainerLogsService {
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly fleet: Fleet) {}

  async read(
    viewer: string,
    hostId: string,
    containerId: string,
    query: { tail: number; since?: string | undefined },
  ): Promise<ContainerLogsResponse> {
    this.throttle(`${viewer}\u0000${hostId}\u0000${containerId}`);
    const host = this.fleet.host(hostId);
    if (host === undefined) throw notFound('Host not found');
    const c = this.fleet.container(hostId, containerId);
    if (c === undefined) throw notFound('Container not found');
    const engine = this.fleet.engine(hostId, { purpose: 'query' });
    if (engine === null) throw conflict(`Host ${host.name} is offline`);
    const since = query.since === undefined ? undefined : toUnixSeconds(query.since);
    try {
      // Streamed and bounded as it arrives: a log answer can be far larger than memory allows.
      const reader = new LogFrameReader();
      await engine.containerLogs(c.fullId, { tail: query.tail, since }, (chunk) =>
        reader.push(chunk),
      );
      return { container_id: c.id, container_name: c.name, logs: reader.end() };
    } catch (err) {
      if ((err as { statusCode?: unknown }).statusCode === 404)
        throw notFound('Container not found');
      const reason = err instanceof Error ? err.message : String(err);
      throw conflict(`Could not read the logs of ${c.name}: ${reason}`);
    }
  }

  private throttle(key: string): void {
    const now = Date.now();
    const times = (this.recent.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
    if (times.length >= MAX_PER_WINDOW) {
      this.recent.set(key, times);
      throw tooManyRequests('Too many log requests for this container; try again in a few seconds');
    }
    times.push(now);
    this.recent.set(key, times);
    if (this.recent.size > 10_000) this.recent.clear(); // viewers come and go; never grow unbounded
  }
}

const toUnixSeconds = (since: string): number =>
  /^\d+(\.\d+)?$/.test(since) ? Number(since) : Math.floor(Date.parse(since) / 1000);
