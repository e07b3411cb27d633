import type { BerthEvent } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { markerKindOf, markerQuery, markersOf, nearestMarker } from './markers';

let nextId = 1;
function event(over: Partial<BerthEvent>): BerthEvent {
  return {
    id: nextId++,
    timestamp: '2026-12-04T12:00:00.000Z',
    severity: 'info',
    category: 'container',
    event_type: 'started',
    title: 'Container Started: web',
    message: null,
    host_id: 'h1',
    host_name: 'edge',
    container_id: 'h1:abc',
    container_name: 'web',
    old_state: null,
    new_state: null,
    correlation_id: null,
    triggered_by: 'engine',
    ...over,
  };
}

const at = (iso: string) => Date.parse(iso) / 1000;
const day = { from: at('2026-12-04T00:00:00Z'), to: at('2026-12-05T00:00:00Z') };

describe('markerKindOf', () => {
  it('marks restarts, updates, health changes, alerts and starts and stops', () => {
    const kind = (category: BerthEvent['category'], event_type: string) =>
      markerKindOf({ category, event_type });
    expect(kind('container', 'restarted')).toBe('restart');
    expect(kind('container', 'auto_restart')).toBe('restart');
    expect(kind('container', 'update_completed')).toBe('update');
    expect(kind('container', 'rollback_failed')).toBe('update');
    expect(kind('container', 'health_status')).toBe('health');
    expect(kind('health_check', 'state_change')).toBe('health');
    expect(kind('alert', 'alert_raised')).toBe('alert');
    expect(kind('alert', 'alert_resolved')).toBe('alert');
    expect(kind('container', 'died')).toBe('state');
    expect(kind('container', 'oom')).toBe('state');
    expect(kind('host', 'disconnection')).toBe('state');
  });

  it('leaves out what does not move a chart', () => {
    expect(markerKindOf({ category: 'container', event_type: 'killed' })).toBeNull();
    expect(markerKindOf({ category: 'container', event_type: 'settings_changed' })).toBeNull();
    expect(markerKindOf({ category: 'container', event_type: 'update_available' })).toBeNull();
    expect(markerKindOf({ category: 'alert', event_type: 'alert_acknowledged' })).toBeNull();
    expect(markerKindOf({ category: 'user', event_type: 'login' })).toBeNull();
  });
});

describe('markersOf', () => {
  const target = { hostId: 'h1', containerName: 'web' };

  it("keeps the container's own events by exact name, oldest first, inside the window", () => {
    const events = [
      event({ timestamp: '2026-12-04T13:00:00Z', event_type: 'restarted', title: 'late' }),
      event({ timestamp: '2026-12-04T12:00:00Z', event_type: 'died', severity: 'error' }),
      // "web-2" matched the log's substring filter; not this container.
      event({ container_name: 'web-2', event_type: 'restarted' }),
      event({ host_id: 'h2', event_type: 'restarted' }),
      event({ timestamp: '2026-12-03T12:00:00Z', event_type: 'restarted' }),
      event({ event_type: 'killed' }),
      event({ category: 'alert', event_type: 'alert_raised', title: 'Alert raised: cpu' }),
    ];
    const markers = markersOf(events, target, day);
    expect(markers.map((m) => [m.kind, m.t, m.severe])).toEqual([
      ['state', at('2026-12-04T12:00:00Z'), true],
      ['alert', at('2026-12-04T12:00:00Z'), true],
      ['restart', at('2026-12-04T13:00:00Z'), false],
    ]);
  });

  it("a host's markers are the events of no container", () => {
    const events = [
      event({ category: 'alert', event_type: 'alert_raised', container_name: null }),
      event({ category: 'alert', event_type: 'alert_raised' }),
      event({ category: 'host', event_type: 'connection', container_name: null }),
    ];
    const markers = markersOf(events, { hostId: 'h1', containerName: null }, day);
    expect(markers.map((m) => m.kind)).toEqual(['alert', 'state']);
  });

  it('asks the Event Log for the window, the host and the name', () => {
    expect(markerQuery(target, day)).toMatchObject({
      host_id: ['h1'],
      container_name: 'web',
      category: ['container', 'health_check', 'alert'],
      start_date: '2026-12-04T00:00:00.000Z',
      end_date: '2026-12-05T00:00:00.000Z',
    });
    expect(markerQuery({ hostId: 'h1', containerName: null }, day)).not.toHaveProperty(
      'container_name',
    );
  });
});

describe('nearestMarker', () => {
  const markers = markersOf(
    [
      event({ timestamp: '2026-12-04T12:00:00Z', event_type: 'restarted' }),
      event({ timestamp: '2026-12-04T12:10:00Z', event_type: 'update_completed' }),
    ],
    { hostId: 'h1', containerName: 'web' },
    day,
  );
  it('finds the closest marker within reach, or none', () => {
    expect(nearestMarker(markers, at('2026-12-04T12:06:00Z'), 300)?.kind).toBe('update');
    expect(nearestMarker(markers, at('2026-12-04T12:04:00Z'), 300)?.kind).toBe('restart');
    expect(nearestMarker(markers, at('2026-12-04T12:05:00Z'), 10)).toBeNull();
  });
});
