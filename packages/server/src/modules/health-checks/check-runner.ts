import { CONTAINER_IP_PLACEHOLDER } from '@berth/contracts';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import { probe, type ProbeRequest, type ProbeResult } from '@berth/agent/http-probe';

/** A check's request with its secrets opened. */
export type CheckTarget = ProbeRequest;

/**
 * Where a host's checks run when not in Berth's process: the probe of the agent next to its
 * engine (decision 023), or null for Berth's own. Only the probe moves; its result is
 * counted here like every other result.
 */
export type ProbeAt = (hostId: string) => ((req: ProbeRequest) => Promise<ProbeResult>) | null;

/**
 * Runs checks, a bounded number at once: `{container_ip}` resolved from inspect (the
 * address kept until the container starts again or goes), then one probe.
 */
export class CheckRunner {
  private readonly ipCache = new Map<string, string>();
  private readonly waiting: (() => void)[] = [];
  private inFlight = 0;

  constructor(
    private readonly fleet: Fleet,
    /** Checks in flight at once; the others wait their turn. */
    private readonly concurrency: number,
    private readonly probeAt: ProbeAt = () => null,
  ) {}

  /** Runs `task` once fewer than `concurrency` others are running. */
  async inTurn(task: () => Promise<void>): Promise<void> {
    if (this.inFlight < this.concurrency) this.inFlight++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      await task();
    } finally {
      // The turn passes on to the next in line, or the slot is freed.
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.inFlight--;
    }
  }

  /** One request for a target of this container (the scheduled run and the test call). */
  async runOnce(
    hostId: string,
    c: ContainerSnapshot,
    target: CheckTarget,
    onResolved: (url: string) => void = () => undefined,
  ): Promise<ProbeResult & { resolvedUrl: string | null }> {
    let url: string;
    try {
      url = await this.resolveUrl(hostId, c, target.url);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { healthy: false, message, statusCode: null, responseTimeMs: null, resolvedUrl: null };
    }
    onResolved(url);
    const run = this.probeAt(hostId) ?? probe;
    return { ...(await run({ ...target, url })), resolvedUrl: url };
  }

  /** An engine event: a start may bring a new address, a destroy frees one. */
  containerChanged(hostId: string, action: string, name: string): void {
    if (action !== 'start' && action !== 'destroy') return;
    for (const c of this.fleet.containers(hostId))
      if (c.name === name) this.ipCache.delete(c.fullId);
    if (action === 'destroy') this.ipCache.clear();
  }

  /** `{container_ip}` resolved from inspect (the first network's address). */
  private async resolveUrl(hostId: string, c: ContainerSnapshot, url: string): Promise<string> {
    if (!url.includes(CONTAINER_IP_PLACEHOLDER)) return url;
    let ip = this.ipCache.get(c.fullId);
    if (ip === undefined) {
      const engine = this.fleet.engine(hostId, { purpose: 'query' });
      if (engine === null) throw new Error(`Host ${c.hostName} is offline`);
      const settings = (await engine.inspectContainer(c.fullId)).NetworkSettings;
      // Newer engines drop the top-level IPAddress; the networks carry the address.
      const nets = Object.values(settings.Networks);
      ip = settings.IPAddress || nets.map((n) => n.IPAddress ?? '').find((a) => a !== '') || '';
      if (ip === '') throw new Error('The container has no IP address for {container_ip}');
      this.ipCache.set(c.fullId, ip);
    }
    return url.split(CONTAINER_IP_PLACEHOLDER).join(ip);
  }
}
