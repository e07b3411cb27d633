import type { AlertListResponse, AlertStats, Host, UpdatesSummary } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { createAlertsStore, type AlertRow } from './alerts.store.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
beforeEach(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterEach(() => t.close());

const alertRow = (over: Partial<AlertRow>): AlertRow => ({
  id: 'a1',
  title: 'CPU high',
  message: null,
  kind: 'cpu_high',
  state: 'open',
  severity: 'critical',
  scope_type: 'host',
  scope_id: 'h',
  host_id: 'h',
  host_name: 'edge',
  container_name: null,
  rule_id: null,
  first_seen: '2026-11-22T10:00:00.000Z',
  last_seen: '2026-11-22T10:00:00.000Z',
  current_value: 95,
  threshold: 90,
  snoozed_until: null,
  resolved_at: null,
  resolved_reason: null,
  dedup_key: null,
  rule_name: null,
  notified_at: null,
  occurrences: 1,
  ...over,
});

describe('alert and update counts the dashboard reads', () => {
  it('answers real zero counts on an empty database', async () => {
    const list = await api.get<AlertListResponse>('/alerts/?state=open&page_size=500');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ alerts: [], total: 0, page: 1, page_size: 500 });
    const stats = await api.get<AlertStats>('/alerts/stats/');
    expect(stats.body).toEqual({
      by_state: { open: 0, snoozed: 0, resolved: 0 },
      by_severity: { critical: 0, error: 0, warning: 0, info: 0 },
    });
    const updates = await api.get<UpdatesSummary>('/updates/summary');
    expect(updates.body).toEqual({ total_updates: 0, containers_with_updates: [] });
  });

  it('counts a host’s alerts and resolves them when the host is deleted', async () => {
    const host = (await api.post<Host>('/hosts', { name: 'edge', url: 'tcp://127.0.0.1:9' })).body;
    const store = createAlertsStore(t.app.services.db);
    await store.insert(alertRow({ id: 'a1', host_id: host.id, scope_id: host.id }));
    await store.insert(
      alertRow({ id: 'a2', host_id: host.id, state: 'snoozed', severity: 'warning' }),
    );
    await store.insert(alertRow({ id: 'a3', host_id: 'other', severity: 'error' }));

    const listed = (await api.get<Host[]>('/hosts')).body.find((h) => h.id === host.id);
    expect(listed?.alerts).toEqual({ open: 1, snoozed: 1 });
    const open = await api.get<AlertListResponse>(`/alerts?state=open&host_id=${host.id}`);
    expect(open.body.alerts.map((a) => a.id)).toEqual(['a1']);
    expect(open.body.total).toBe(1);

    const deleted = await api.delete<{ resolved_alerts: number }>(`/hosts/${host.id}`);
    expect(deleted.body.resolved_alerts).toBe(2);
    const stats = await api.get<AlertStats>('/alerts/stats');
    expect(stats.body.by_state).toEqual({ open: 1, snoozed: 0, resolved: 2 });
    expect(stats.body.by_severity).toEqual({ critical: 0, error: 1, warning: 0, info: 0 });
  });

  it('names the field of a bad query', async () => {
    const res = await api.get('/alerts/?page_size=5000');
    expect(res.status).toBe(400);
    expect((res.body as { detail: string }).detail).toBe('Page size must be at most 500');
    const state = await api.get('/alerts/?state=closed');
    expect((state.body as { detail: string }).detail).toMatch(/^State /);
  });
});
