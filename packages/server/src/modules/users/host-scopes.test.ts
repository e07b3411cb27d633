import type {
  AlertListResponse,
  AlertStats,
  EventsResponse,
  Host,
  UserRole,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { userSignedIn } from '../../test/users.js';
import { permissionOf, roleAllows } from '../auth/index.js';

const VIEWER_LOGS_OFF =
  'Viewers cannot read container logs: an admin has not allowed it (Settings → System)';

/**
 * Host-tag scopes on every REST route: an operator and a viewer limited to `staging` against a
 * host tagged `prod` and one tagged `staging`. Routes are read from app.routeTable, so a new
 * route with a host in its path is covered without editing this file.
 */
let t: TestApp;
let adminCookie: string;
let prod: Host;
let staging: Host;
const scoped = {} as Record<'operator' | 'viewer', { id: number; cookie: string }>;
const now = new Date().toISOString();

beforeAll(async () => {
  t = await buildTestApp();
  adminCookie = await signedInCookie(t.app);
  const admin = apiClient(t.app, adminCookie);
  // Addresses nothing listens on: scopes are about which hosts a caller sees, not engines.
  prod = (
    await admin.post<Host>('/hosts', { name: 'prod-1', url: 'tcp://127.0.0.1:9', tags: ['prod'] })
  ).body;
  staging = (
    await admin.post<Host>('/hosts', {
      name: 'staging-1',
      url: 'tcp://127.0.0.1:10',
      tags: ['Staging'],
    })
  ).body;
  for (const role of ['operator', 'viewer'] as const) {
    scoped[role] = await userSignedIn(t.app, adminCookie, `${role}-staging`, role);
    // Given after sign-in: a scope change applies to the next request of an open session.
    const set = await admin.patch(`/users/${scoped[role].id}`, { host_tags: [' STAGING '] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ host_tags: ['staging'] });
  }
  const { db, events } = t.app.services;
  for (const host of [prod, staging]) {
    await events.record({
      severity: 'info',
      category: 'container',
      event_type: 'state_change',
      title: `event on ${host.name}`,
      host_id: host.id,
      host_name: host.name,
    });
    await db
      .insertInto('alerts')
      .values({
        id: `alert-${host.name}`,
        title: `alert on ${host.name}`,
        message: null,
        kind: 'metric',
        state: 'open',
        severity: 'warning',
        scope_type: 'host',
        scope_id: host.id,
        host_id: host.id,
        host_name: host.name,
        container_name: null,
        rule_id: null,
        first_seen: now,
        last_seen: now,
        current_value: null,
        threshold: null,
        snoozed_until: null,
        resolved_at: null,
        resolved_reason: null,
        dedup_key: null,
        rule_name: null,
        notified_at: null,
      })
      .execute();
    await db
      .insertInto('batch_jobs')
      .values({
        id: `job-${host.name}`,
        action: 'restart',
        params: '{}',
        status: 'completed',
        created_by: 'admin',
        created_at: now,
        completed_at: now,
      })
      .execute();
    await db
      .insertInto('batch_items')
      .values({
        id: `item-${host.name}`,
        job_id: `job-${host.name}`,
        position: 0,
        host_id: host.id,
        host_name: host.name,
        container_id: 'abcdef123456',
        container_name: 'web',
        status: 'completed',
        message: null,
      })
      .execute();
  }
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** Every /api route with a host in its path. */
const hostRoutes = () =>
  t.app.routeTable
    .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .filter((r) => r.url.includes(':hostId') || r.url.startsWith('/api/hosts/:id'))
    .map((r) => ({
      method: r.method as Method,
      url: r.url,
      permission: permissionOf(r.method, r.url),
    }));
const fill = (url: string, hostId: string) =>
  url.replace(/:hostId|:id\b/, hostId).replace(/:[A-Za-z_]+/g, '999999');
const missingText = (url: string, hostId: string) =>
  url.startsWith('/api/hosts/:id') ? `Host ${hostId} not found` : 'Host not found';

const call = (cookie: string, method: Method, url: string) =>
  t.app.inject({ method, url, headers: { cookie }, ...(method === 'GET' ? {} : { payload: {} }) });

describe('a user scoped to staging, on every route with a host in its path', () => {
  for (const role of ['operator', 'viewer'] as const satisfies readonly UserRole[]) {
    it(`(${role}) gets the missing-host 404 for prod, and the admin's answer for staging`, async () => {
      const routes = hostRoutes();
      expect(routes.length).toBeGreaterThan(20);
      for (const route of routes) {
        const where = `${role} → ${route.method} ${route.url}`;
        const out = await call(scoped[role].cookie, route.method, fill(route.url, prod.id));
        // Logs a viewer may not read are refused for every host alike, before the scope.
        if (out.statusCode === 403 && out.json<{ detail: string }>().detail === VIEWER_LOGS_OFF) {
          continue;
        }
        if (!roleAllows(role, route.permission)) {
          expect(out.statusCode, where).toBe(403);
          continue;
        }
        expect(out.statusCode, `${where}: ${out.body}`).toBe(404);
        expect(out.json(), where).toEqual({ detail: missingText(route.url, prod.id) });

        // In reach: whatever the route answers, it answers as it does the admin (no 404 for scope).
        const mine = await call(scoped[role].cookie, route.method, fill(route.url, staging.id));
        const admins = await call(adminCookie, route.method, fill(route.url, staging.id));
        expect(mine.statusCode, `${where} (staging): ${mine.body}`).toBe(admins.statusCode);
        if (mine.statusCode >= 400) expect(mine.json(), where).toEqual(admins.json());
      }
    });
  }

  it('refuses a prod container named by a composite key in a staging path', async () => {
    const res = await call(
      scoped.viewer.cookie,
      'GET',
      `/api/hosts/${staging.id}/events/container/${prod.id}:abcdef123456`,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Host not found' });
  });

  it('answers an unknown host exactly as an out-of-scope one', async () => {
    const res = await call(scoped.viewer.cookie, 'GET', '/api/hosts/no-such-host');
    const admin = await call(adminCookie, 'GET', '/api/hosts/no-such-host');
    expect(res.json()).toEqual(admin.json());
    expect(res.statusCode).toBe(404);
  });
});

describe('lists and counts of a user scoped to staging', () => {
  const as = (role: 'operator' | 'viewer') => apiClient(t.app, scoped[role].cookie);

  it('leave out the prod host everywhere, while the admin sees both', async () => {
    const admin = apiClient(t.app, adminCookie);
    for (const role of ['operator', 'viewer'] as const) {
      const api = as(role);
      const hosts = await api.get<Host[]>('/hosts');
      expect(hosts.body.map((h) => h.name)).toEqual(['staging-1']);
      const events = await api.get<EventsResponse>('/events');
      expect(new Set(events.body.events.map((e) => e.host_id))).toEqual(new Set([staging.id]));
      expect(events.body.total_count).toBe(events.body.events.length);
      const searched = await api.get<EventsResponse>('/events?search=event%20on');
      expect(searched.body.events.map((e) => e.title)).toEqual(['event on staging-1']);
      const asked = await api.get<EventsResponse>(`/events?host_id=${prod.id}`);
      expect(asked.body).toMatchObject({ events: [], total_count: 0 });
      const alerts = await api.get<AlertListResponse>('/alerts');
      expect(alerts.body.alerts.map((a) => a.host_id)).toEqual([staging.id]);
      expect(alerts.body.total).toBe(1);
      const stats = await api.get<AlertStats>('/alerts/stats');
      expect(stats.body.by_state.open).toBe(1);
      const disks = await api.get<{ hosts: { host_id: string }[] }>('/alerts/disk-availability');
      expect(disks.body.hosts.map((h) => h.host_id)).toEqual([staging.id]);
      const tags = await api.get<{ tags: string[] }>('/hosts/tags/suggest?q=');
      expect(tags.body.tags).toEqual(['staging']);
      for (const url of ['/containers', '/auto-update-configs', '/health-check-configs']) {
        expect((await api.get(url)).status, url).toBe(200);
      }
      const summary = await api.get('/updates/summary');
      expect(summary.body).toEqual({ total_updates: 0, containers_with_updates: [] });
    }
    expect((await admin.get<Host[]>('/hosts')).body).toHaveLength(2);
    expect((await admin.get<AlertListResponse>('/alerts')).body.total).toBe(2);
    expect((await admin.get<EventsResponse>('/events')).body.total_count).toBeGreaterThanOrEqual(2);
  });

  it('hides prod alerts and batch jobs by id, and refuses acting on them', async () => {
    const viewer = as('viewer');
    const operator = as('operator');
    expect(await viewer.get('/alerts/alert-prod-1')).toEqual({
      status: 404,
      body: { detail: 'Alert not found' },
    });
    expect((await viewer.get('/alerts/alert-staging-1')).status).toBe(200);
    for (const action of ['resolve', 'snooze', 'unsnooze', 'annotations']) {
      const body =
        action === 'snooze'
          ? { duration_minutes: 5 }
          : action === 'annotations'
            ? { text: 'x' }
            : {};
      const res = await operator.post(`/alerts/alert-prod-1/${action}`, body);
      expect(res, action).toEqual({ status: 404, body: { detail: 'Alert not found' } });
    }
    expect(await viewer.get('/batch/job-prod-1')).toEqual({
      status: 404,
      body: { detail: 'Batch job not found' },
    });
    const job = await viewer.get<{ items: { host_id: string }[] }>('/batch/job-staging-1');
    expect(job.body.items.map((i) => i.host_id)).toEqual([staging.id]);
    const batch = await operator.post('/batch', {
      scope: 'container',
      action: 'restart',
      ids: [`${staging.id}:abcdef123456`, `${prod.id}:abcdef123456`],
    });
    expect(batch).toEqual({ status: 404, body: { detail: 'ids.1: Host not found' } });
    const checked = await operator.post<{ total: number }>('/updates/check-all', {});
    expect(checked.status).toBe(200);
  });

  it('holds for an API key, which acts within its owner scope', async () => {
    const made = await as('operator').post<{ key: string }>('/api-keys', {
      name: 'ci',
      scope: 'operate',
    });
    expect(made.status).toBe(201);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/hosts',
      headers: { authorization: `Bearer ${made.body.key}` },
    });
    expect(res.json<Host[]>().map((h) => h.name)).toEqual(['staging-1']);
    const prodRead = await t.app.inject({
      method: 'GET',
      url: `/api/hosts/${prod.id}`,
      headers: { authorization: `Bearer ${made.body.key}` },
    });
    expect(prodRead.statusCode).toBe(404);
  });
});

describe('the Prometheus scrape', () => {
  it('is every host at once, so a scoped caller is refused it', async () => {
    const admin = apiClient(t.app, adminCookie);
    const on = await admin.put('/integrations/prometheus', {
      enabled: true,
      allowed_addresses: [],
    });
    expect(on.status).toBe(200);
    const scrape = (cookie: string) => t.app.inject({ url: '/metrics', headers: { cookie } });
    const refused = await scrape(scoped.viewer.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'A user limited to host tags cannot read the metrics of every host',
    });
    expect((await scrape(adminCookie)).statusCode).toBe(200);
  });
});

describe('host tags on users', () => {
  it('refuses tags on an admin, clears them on promotion, and validates them like host tags', async () => {
    const admin = apiClient(t.app, adminCookie);
    const made = await admin.post('/users', { username: 'boss', role: 'admin', host_tags: ['x'] });
    expect(made).toEqual({
      status: 400,
      body: {
        detail: 'Host tags: Admins reach every host; choose another role to limit a user to tags',
      },
    });
    const tooMany = await admin.post('/users', {
      username: 'many',
      role: 'viewer',
      host_tags: Array.from({ length: 21 }, (_, i) => `t${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ detail: 'A user can have at most 20 host tags' });
    const empty = await admin.post('/users', {
      username: 'blank',
      role: 'viewer',
      host_tags: [' '],
    });
    expect(empty).toEqual({ status: 400, body: { detail: 'Tags must not be empty' } });
    const viewer = await admin.post<{ user: { id: number; host_tags: string[] } }>('/users', {
      username: 'tagged',
      role: 'viewer',
      host_tags: ['Edge', 'edge'],
    });
    expect(viewer.body.user.host_tags).toEqual(['edge']);
    const promoted = await admin.patch(`/users/${viewer.body.user.id}`, { role: 'admin' });
    expect(promoted.body).toMatchObject({ role: 'admin', host_tags: [] });
  });
});
