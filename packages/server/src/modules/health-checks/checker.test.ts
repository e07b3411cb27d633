import { createServer, type Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../test/loopback.js';
import { waitFor } from '../../test/wait.js';
import type { LiveHub } from '../../platform/live-hub.js';
import type { EventInput, EventsService } from '../events/index.js';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import { Restarter, RestartBudgets } from '../restarts/index.js';
import { unknownStatus } from './check-status.js';
import { HealthChecker, type HealthAlertPort } from './checker.js';
import type { HealthCheckRow, HealthChecksStore } from './health-checks.store.js';
import { RestartGuard } from './restart-guard.js';

const silent = { warn: () => undefined } as unknown as FastifyBaseLogger;
const servers: Server[] = [];
let checker: HealthChecker | undefined;

afterEach(async () => {
  await checker?.stop();
  checker = undefined;
  for (const s of servers.splice(0)) s.close();
});

/** A loopback server whose answer the test changes. */
async function target(): Promise<{ url: string; setStatus: (n: number) => void }> {
  let status = 500;
  const server = createServer((_req, res) => {
    res.statusCode = status;
    res.end('x');
  });
  servers.push(server);
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}/health`, setStatus: (n) => (status = n) };
}

/** The checker with a fake Fleet (one running container), events, hub and store. */
function harness(window: { windowMs: number; max: number }) {
  const container = {
    fullId: 'f'.repeat(64),
    id: 'f'.repeat(12),
    name: 'web',
    state: 'running',
    hostId: 'h1',
    hostName: 'host-1',
  } as unknown as ContainerSnapshot;
  const restarts: number[] = [];
  const listeners: ((ev: { hostId: string; action: string; name: string }) => void)[] = [];
  /** A user's `docker stop`: the container exits and the engine says stop. */
  const userStop = () => {
    (container as { state: string }).state = 'exited';
    for (const fn of listeners) fn({ hostId: 'h1', action: 'die', name: 'web' });
    for (const fn of listeners) fn({ hostId: 'h1', action: 'stop', name: 'web' });
  };
  const fleet = {
    host: () => ({ id: 'h1', name: 'host-1', status: 'online', error: null }),
    containerByName: () => container,
    container: () => container,
    containers: () => [container],
    on: (_event: string, fn: (ev: { hostId: string; action: string; name: string }) => void) => {
      listeners.push(fn);
      return () => undefined;
    },
    refresh: () => Promise.resolve(container),
    engine: () => ({
      restartContainer: () => {
        restarts.push(Date.now());
        return Promise.resolve();
      },
    }),
  } as unknown as Fleet;
  const events: EventInput[] = [];
  const signals: { active: boolean; message: string }[] = [];
  const alerts: HealthAlertPort = {
    signal: (s) => {
      signals.push(s);
      return Promise.resolve();
    },
  };
  const store = {
    upsert: () => Promise.resolve(),
    saveStatuses: () => Promise.resolve(),
    listAll: () => Promise.resolve([]),
  } as unknown as HealthChecksStore;
  checker = new HealthChecker({
    fleet,
    restarter: new Restarter({ fleet, budgets: new RestartBudgets(window) }),
    events: {
      record: (e: EventInput) => (events.push(e), Promise.resolve()),
    } as unknown as EventsService,
    hub: { publish: () => undefined } as unknown as LiveHub,
    store,
    alerts,
    log: silent,
    options: { flushMs: 60_000, tickMs: 20 },
  });
  checker.start([]);
  return { checker, restarts, events, signals, userStop };
}

/** A check row with delays far below the API's bounds, which only validation enforces. */
function row(url: string, over: Partial<HealthCheckRow> = {}): HealthCheckRow {
  return {
    host_id: 'h1',
    container_name: 'web',
    enabled: 1,
    url,
    method: 'GET',
    expected_status_codes: '200',
    timeout_seconds: 2,
    check_interval_seconds: 0.05,
    follow_redirects: 1,
    verify_ssl: 1,
    headers_sealed: null,
    auth_sealed: null,
    auto_restart_on_failure: 1,
    failure_threshold: 1,
    success_threshold: 1,
    max_restart_attempts: 10,
    restart_retry_delay_seconds: 0.05,
    updated_at: new Date().toISOString(),
    ...unknownStatus(),
    ...over,
  };
}

const targetOf = (r: HealthCheckRow) => ({
  url: r.url,
  method: 'GET' as const,
  expectedStatusCodes: r.expected_status_codes,
  timeoutMs: 2000,
  followRedirects: true,
  verifySsl: true,
  headers: {},
});

describe('RestartGuard', () => {
  it('allows max restarts per unhealthy episode, and a full count again after recovery', () => {
    const g = new RestartGuard();
    for (let i = 0; i < 3; i++) {
      expect(g.check(3)).toBeNull();
      g.record();
    }
    expect(g.check(3)).toEqual({ reason: 'episode_cap', attempts: 3 });
    g.resetEpisode();
    expect(g.check(3)).toBeNull();
  });
});

describe('HealthChecker restarts', { timeout: 30_000 }, () => {
  it('stops at the safety window (shortened to 3 in 4 s), says so, and resumes after it', async () => {
    // Wide enough that three restarts fit in it on a loaded machine (1.5 s did not in CI).
    const WINDOW_MS = 4000;
    // The guard stamps a restart just before the engine call the fake engine stamps here (a
    // 1 ms gap once made the 4th restart look 1,499 ms after the 1st in a 1,500 ms window).
    const STAMP_GAP_MS = 100;
    const t = await target();
    const h = harness({ windowMs: WINDOW_MS, max: 3 });
    const r = row(t.url);
    await h.checker.put(r, targetOf(r));
    await waitFor('three restarts', () => h.restarts.length >= 3, WINDOW_MS);
    await waitFor('the window event', () =>
      h.events.some((e) => e.title === 'Berth stopped restarting web'),
    );
    const firstBurst = h.restarts.slice(0, 3);
    expect((firstBurst[2] ?? 0) - (firstBurst[0] ?? 0)).toBeLessThan(WINDOW_MS);
    // Inside the window nothing more happens.
    await new Promise((res) => setTimeout(res, 500));
    const stopped = h.restarts.filter((t0) => t0 - (firstBurst[0] ?? 0) < WINDOW_MS).length;
    expect(stopped).toBe(3);
    expect(h.signals.some((s) => s.active && s.message.includes('stopped restarting'))).toBe(true);
    // After the window, the check still failing, restarts resume.
    await waitFor('a restart after the window', () => h.restarts.length >= 4, 2 * WINDOW_MS);
    expect((h.restarts[3] ?? 0) - (firstBurst[0] ?? 0)).toBeGreaterThanOrEqual(
      WINDOW_MS - STAMP_GAP_MS,
    );
    // In any window-long span there are never more than 3.
    for (const t0 of h.restarts)
      expect(
        h.restarts.filter((x) => x >= t0 && x < t0 + WINDOW_MS - STAMP_GAP_MS).length,
      ).toBeLessThanOrEqual(3);
  });

  it('restarts at most max_restart_attempts per episode, and recovery resets the budget', async () => {
    const t = await target();
    const h = harness({ windowMs: 600_000, max: 12 });
    const r = row(t.url, { max_restart_attempts: 2 });
    await h.checker.put(r, targetOf(r));
    await waitFor('gave up', () =>
      h.events.some((e) => e.title === 'Berth gave up restarting web'),
    );
    expect(h.restarts).toHaveLength(2);
    expect(h.signals.filter((s) => s.active)).toHaveLength(1);
    t.setStatus(200);
    await waitFor('healthy', () => h.checker.get('h1', 'web')?.current_status === 'healthy');
    await waitFor('alert resolved', () => h.signals.some((s) => !s.active));
    expect(h.events.map((e) => e.new_state).filter(Boolean)).toEqual(['unhealthy', 'healthy']);
    t.setStatus(503);
    await waitFor('two more restarts in the new episode', () => h.restarts.length === 4);
    await new Promise((res) => setTimeout(res, 300));
    expect(h.restarts).toHaveLength(4);
    expect(h.checker.get('h1', 'web')?.last_error_message).toBe(
      'Received status 503 (expected: 200)',
    );
  });

  it('never restarts a container a user stopped, and pauses while it is updated', async () => {
    const t = await target();
    const h = harness({ windowMs: 600_000, max: 12 });
    h.checker.setUpdating('h1', 'web', true);
    const r = row(t.url);
    await h.checker.put(r, targetOf(r));
    await new Promise((res) => setTimeout(res, 400));
    expect(h.checker.get('h1', 'web')?.last_checked_at).toBeNull();
    expect(h.checker.pausedReason('h1', 'web')).toBe('Paused while the container is being updated');
    h.checker.setUpdating('h1', 'web', false);
    await waitFor('restarted once updating ended', () => h.restarts.length >= 1);
    h.userStop();
    const after = h.restarts.length;
    await new Promise((res) => setTimeout(res, 400));
    expect(h.restarts.length).toBeLessThanOrEqual(after + 1); // one may have been under way
    const settled = h.restarts.length;
    await new Promise((res) => setTimeout(res, 400));
    expect(h.restarts).toHaveLength(settled);
    expect(h.checker.pausedReason('h1', 'web')).toBe('Paused: the container was stopped by a user');
  });
});
