import {
  containerKey,
  prometheusSettingsSchema,
  type PrometheusSettings,
  type PrometheusSettingsUpdate,
} from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { EventInput } from '../events/index.js';
import type { Fleet } from '../monitor/index.js';
import { addressMatcher } from './allowed-addresses.js';
import { fleetExposition, type FleetReading, type HostReading } from './fleet-metrics.js';

/** The settings row holding the export's settings (the global settings answer never shows it). */
export const PROMETHEUS_SETTINGS_KEY = 'integration_prometheus';
const DEFAULTS: PrometheusSettings = { enabled: false, allowed_addresses: [] };
/** The event count is a count over the whole log: read at most this often. */
const EVENTS_COUNT_MS = 60_000;
const ACTIVE_TOTALS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsExportDeps {
  store: {
    readAll(): Promise<Record<string, unknown>>;
    writeMany(values: Record<string, unknown>): Promise<unknown>;
  };
  fleet: Pick<Fleet, 'containers' | 'containerStats' | 'demandStats'>;
  /** Every registered host with its live status and connection type. */
  hosts(): Promise<HostReading[]>;
  /** Keys (`host_id:short_id`) of the containers with an update waiting. */
  updatesAvailable(): Promise<string[]>;
  alerts(): Promise<FleetReading['alerts']>;
  outbox(): Promise<Record<string, number>>;
  eventsStored(): Promise<number>;
  liveSockets(): number;
  record(event: EventInput): Promise<unknown>;
  log: FastifyBaseLogger;
}

/**
 * Prometheus's view of Berth: the setting that turns it on and who may scrape, the process
 * metrics and request durations (prom-client, on a registry of its own), and the fleet
 * written at scrape time from what the monitor and the other modules hold.
 */
export class MetricsExportService {
  private current: PrometheusSettings = DEFAULTS;
  private allowed: (ip: string) => boolean = () => false;
  /** Made when the export is first on, so an unused export costs nothing. */
  private process: { registry: Registry; requests: Histogram } | null = null;
  private events: { n: number; at: number } | null = null;

  constructor(private readonly deps: MetricsExportDeps) {}

  async load(): Promise<void> {
    const stored = (await this.deps.store.readAll())[PROMETHEUS_SETTINGS_KEY];
    if (stored === undefined) return;
    const parsed = prometheusSettingsSchema.safeParse(stored);
    if (parsed.success) this.apply(parsed.data);
    else this.deps.log.warn('stored Prometheus settings are invalid; the export stays off');
  }

  settings(): PrometheusSettings {
    return this.current;
  }

  async update(body: PrometheusSettingsUpdate, actor: string): Promise<PrometheusSettings> {
    const next = prometheusSettingsSchema.parse(body);
    await this.deps.store.writeMany({ [PROMETHEUS_SETTINGS_KEY]: next });
    const was = this.current.enabled;
    this.apply(next);
    await this.deps.record({
      severity: 'info',
      category: 'system',
      event_type: 'settings_changed',
      title:
        was === next.enabled
          ? `Prometheus metrics settings changed by ${actor}`
          : `Prometheus metrics turned ${next.enabled ? 'on' : 'off'} by ${actor}`,
      triggered_by: actor,
    });
    return next;
  }

  get enabled(): boolean {
    return this.current.enabled;
  }

  /** Whether `ip` (request.ip, so behind a trusted proxy the client's) may scrape without a key. */
  isAllowedAddress(ip: string): boolean {
    return this.allowed(ip);
  }

  /** One finished HTTP request, by its route pattern (never the raw URL: bounded series). */
  observeRequest(method: string, route: string | undefined, status: number, ms: number): void {
    this.process?.requests.observe(
      { method, route: route ?? 'unmatched', status_class: `${Math.floor(status / 100)}xx` },
      ms / 1000,
    );
  }

  get contentType(): string {
    return Registry.PROMETHEUS_CONTENT_TYPE;
  }

  /** The whole exposition text. */
  async scrape(): Promise<string> {
    const processText = this.process === null ? '' : await this.process.registry.metrics();
    return processText + fleetExposition(await this.read());
  }

  /** Everything the fleet's series are written from. */
  async read(): Promise<FleetReading> {
    const { deps } = this;
    const [hosts, updates, alerts, outbox, eventsStored] = await Promise.all([
      deps.hosts(),
      deps.updatesAvailable(),
      deps.alerts(),
      deps.outbox(),
      this.eventsStored(),
    ]);
    const withUpdate = new Set(updates);
    const containers = deps.fleet.containers().map((c) => {
      const s = c.state === 'running' ? deps.fleet.containerStats(c.hostId, c.id) : undefined;
      return {
        hostId: c.hostId,
        hostName: c.hostName,
        name: c.name,
        image: c.image,
        state: c.state,
        health: c.health,
        labels: c.labels,
        restartCount: c.restartCount,
        updateAvailable: withUpdate.has(containerKey(c.hostId, c.id)),
        stats:
          s === undefined
            ? null
            : {
                cpuPercent: s.cpu_percent,
                memoryBytes: s.memory_usage,
                memoryLimitBytes: s.memory_limit,
                rxBytes: s.network_rx,
                txBytes: s.network_tx,
              },
      };
    });
    return { hosts, containers, alerts, outbox, eventsStored, liveSockets: deps.liveSockets() };
  }

  private async eventsStored(): Promise<number> {
    const now = Date.now();
    if (this.events !== null && now - this.events.at < EVENTS_COUNT_MS) return this.events.n;
    this.events = { n: await this.deps.eventsStored(), at: now };
    return this.events.n;
  }

  private apply(next: PrometheusSettings): void {
    this.current = next;
    this.allowed = addressMatcher(next.allowed_addresses);
    // Stats are sampled only while someone wants them: a scraper does, as a browser does.
    this.deps.fleet.demandStats('metrics-export', next.enabled);
    if (next.enabled && this.process === null) {
      const registry = new Registry();
      collectDefaultMetrics({ register: registry });
      // Gauges named like counters, which promtool rejects; nodejs_active_* by type remain.
      for (const name of ACTIVE_TOTALS) registry.removeSingleMetric(name);
      const requests = new Histogram({
        name: 'berth_http_request_duration_seconds',
        help: 'HTTP requests Berth answered, by route pattern, method and status class.',
        labelNames: ['method', 'route', 'status_class'],
        buckets: DURATION_BUCKETS,
        registers: [registry],
      });
      this.process = { registry, requests };
    }
  }
}
