import { describe, expect, it } from 'vitest';
import { escapeLabelValue, formatValue } from './exposition.js';
import { fleetExposition, type ContainerReading, type FleetReading } from './fleet-metrics.js';

const container = (name: string, more: Partial<ContainerReading> = {}): ContainerReading => ({
  hostId: 'h1',
  hostName: 'web-1',
  name,
  image: 'nginx:1.27',
  state: 'running',
  health: null,
  labels: { 'com.docker.compose.project': 'shop' },
  restartCount: 2,
  updateAvailable: false,
  stats: { cpuPercent: 12.5, memoryBytes: 1024, memoryLimitBytes: 4096, rxBytes: 10, txBytes: 20 },
  ...more,
});

const reading = (containers: ContainerReading[]): FleetReading => ({
  hosts: [
    { id: 'h1', name: 'web-1', status: 'online', connection: 'tls' },
    { id: 'h2', name: 'db-1', status: 'offline', connection: 'agent' },
  ],
  containers,
  alerts: [{ state: 'open', severity: 'critical', n: 3 }],
  outbox: { pending: 4, delivered: 9 },
  eventsStored: 1234,
  liveSockets: 2,
});

/** The samples of a text, `name{labels}` → value. */
function samples(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), line.slice(at + 1));
  }
  return out;
}

const C = 'host="web-1",container="api",image="nginx:1.27",compose_project="shop"';

describe('the fleet as Prometheus text', () => {
  it('writes every container series with host, container, image and compose_project labels', () => {
    const s = samples(fleetExposition(reading([container('api', { updateAvailable: true })])));
    expect(s.get(`berth_container_up{${C}}`)).toBe('1');
    expect(s.get(`berth_container_cpu_percent{${C}}`)).toBe('12.5');
    expect(s.get(`berth_container_memory_usage_bytes{${C}}`)).toBe('1024');
    expect(s.get(`berth_container_memory_limit_bytes{${C}}`)).toBe('4096');
    expect(s.get(`berth_container_network_receive_bytes_total{${C}}`)).toBe('10');
    expect(s.get(`berth_container_network_transmit_bytes_total{${C}}`)).toBe('20');
    expect(s.get(`berth_container_restarts_total{${C}}`)).toBe('2');
    expect(s.get(`berth_container_update_available{${C}}`)).toBe('1');
  });

  it('names counters _total and declares each family once, with units in the name', () => {
    const text = fleetExposition(reading([container('api'), container('web')]));
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]);
    const names = types.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const [name, type] of types) {
      expect(name).toMatch(/^berth_[a-z_]+$/);
      if (type === 'counter') expect(name).toMatch(/_total$/);
      else expect(name).not.toMatch(/_total$/);
    }
    expect(names).toContain('berth_container_memory_usage_bytes');
  });

  it('counts each host by state, says whether it is up, and leaves an offline host uncounted', () => {
    const stopped = container('old', { state: 'exited', stats: null });
    const s = samples(fleetExposition(reading([container('api'), stopped])));
    expect(s.get('berth_host_up{host="web-1"}')).toBe('1');
    expect(s.get('berth_host_up{host="db-1"}')).toBe('0');
    expect(s.get('berth_host_info{host="db-1",connection="agent"}')).toBe('1');
    expect(s.get('berth_host_containers{host="web-1",state="running"}')).toBe('1');
    expect(s.get('berth_host_containers{host="web-1",state="exited"}')).toBe('1');
    expect(s.get('berth_host_containers{host="web-1",state="paused"}')).toBe('0');
    expect([...s.keys()].some((k) => k.startsWith('berth_host_containers{host="db-1"'))).toBe(
      false,
    );
  });

  it("leaves out a stopped container's stats rather than saying 0", () => {
    const s = samples(
      fleetExposition(reading([container('old', { state: 'exited', stats: null })])),
    );
    const old = C.replace('"api"', '"old"');
    expect(s.get(`berth_container_up{${old}}`)).toBe('0');
    expect(s.has(`berth_container_cpu_percent{${old}}`)).toBe(false);
  });

  it('writes health as one series per status, only for containers with a check', () => {
    const text = fleetExposition(
      reading([container('api', { health: 'unhealthy' }), container('web')]),
    );
    const s = samples(text);
    expect(s.get(`berth_container_health_status{${C},status="unhealthy"}`)).toBe('1');
    expect(s.get(`berth_container_health_status{${C},status="healthy"}`)).toBe('0');
    expect(text).not.toContain('container="web",image="nginx:1.27",compose_project="shop",status=');
  });

  it('has no series of a removed container, and no empty family', () => {
    const before = fleetExposition(reading([container('api'), container('gone')]));
    expect(before).toContain('container="gone"');
    const after = fleetExposition(reading([container('api')]));
    expect(after).not.toContain('container="gone"');
    expect(fleetExposition(reading([]))).not.toContain('berth_container_');
  });

  it('leaves out an empty label, as Prometheus reads it anyway', () => {
    const text = fleetExposition(reading([container('solo', { labels: {} })]));
    expect(text).toContain(
      'berth_container_up{host="web-1",container="solo",image="nginx:1.27"} 1',
    );
    expect(text).not.toContain('compose_project=""');
  });

  it('escapes backslashes, quotes and line feeds in label values', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    const text = fleetExposition(
      reading([
        container('api', {
          image: 'reg:5000/x"y\\z',
          labels: { 'com.docker.compose.project': 'a\nb' },
        }),
      ]),
    );
    expect(text).toContain('image="reg:5000/x\\"y\\\\z",compose_project="a\\nb"');
    expect(text.split('\n').every((l) => !l.includes('\r'))).toBe(true);
  });

  it('writes Berth itself: sockets, outbox depth, events stored, alerts by state and severity', () => {
    const s = samples(fleetExposition(reading([])));
    expect(s.get('berth_live_sockets')).toBe('2');
    expect(s.get('berth_notification_outbox_messages{status="pending"}')).toBe('4');
    expect(s.get('berth_notification_outbox_messages{status="held"}')).toBe('0');
    expect(s.get('berth_events_stored')).toBe('1234');
    expect(s.get('berth_alerts{state="open",severity="critical"}')).toBe('3');
    expect(s.get('berth_alerts{state="snoozed",severity="info"}')).toBe('0');
  });

  it('spells special values the way Prometheus parses them', () => {
    expect([NaN, Infinity, -Infinity, 1e21, 0.5].map(formatValue)).toEqual([
      'NaN',
      '+Inf',
      '-Inf',
      '1e+21',
      '0.5',
    ]);
  });
});
