import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildTestApp, signedInCookie, TEST_ADMIN, type TestApp } from '../test/test-app.js';
import { CROSS_ORIGIN_DETAIL } from './origin-check.js';

/**
 * Probes every route the app registers (read from app.routeTable, so a new route is covered
 * without editing this file): sessions required, cross-site requests refused, headers set.
 */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/**
 * Reachable without a session on purpose: probes, the sign-in itself, and what agents call
 * (they authenticate with their enrollment token or secret, tested in modules/agents).
 */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'POST /api/v2/auth/login',
  // Single sign-on: what the login page shows, the start, and the provider's way back.
  'GET /api/v2/auth/sso',
  'GET /api/v2/auth/sso/start',
  'GET /api/v2/auth/sso/callback',
  'POST /api/agents/enroll',
  'GET /api/agents/connect',
]);
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const EVIL = 'http://evil.example';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const apiRoutes = () =>
  t.app.routeTable
    .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .map((r) => ({ method: r.method as Method, url: r.url, name: `${r.method} ${r.url}` }));
const fill = (url: string) => url.replace(/:[A-Za-z_]+/g, '1');

describe('every API route', () => {
  it('is found in the route table', () => {
    expect(apiRoutes().length).toBeGreaterThan(20);
    expect(apiRoutes().filter((r) => STATE_CHANGING.has(r.method)).length).toBeGreaterThan(10);
  });

  it('answers 401 without a session unless it is deliberately public', async () => {
    for (const route of apiRoutes()) {
      if (PUBLIC_ROUTES.has(route.name)) continue;
      const res = await t.app.inject({ method: route.method, url: fill(route.url) });
      expect(res.statusCode, route.name).toBe(401);
      expect(res.json(), route.name).toEqual({ detail: 'Not authenticated' });
    }
  });

  it('refuses a state-changing request from another origin, even with a session', async () => {
    for (const route of apiRoutes().filter((r) => STATE_CHANGING.has(r.method))) {
      for (const headers of [
        { origin: EVIL },
        { origin: 'null' },
        { origin: 'http://localhost:8081' }, // same host, another port: same-site, not same-origin
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
      ]) {
        const res = await t.app.inject({
          method: route.method,
          url: fill(route.url),
          headers: { cookie, ...headers },
        });
        const where = `${route.name} ${JSON.stringify(headers)}`;
        expect(res.statusCode, where).toBe(403);
        expect(res.json(), where).toEqual({ detail: CROSS_ORIGIN_DETAIL });
      }
    }
  });

  it('lets same-origin browsers and clients without Origin through the check', async () => {
    for (const headers of [
      { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      {},
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/auth/login',
        headers,
        payload: { username: 'nobody', password: 'wrong-wrong' },
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
    }
  });

  it('sends the security headers on API answers, errors and 404s', async () => {
    for (const url of ['/api/health', '/api/settings', '/api/nope', '/']) {
      const res = await t.app.inject({ url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });
});

describe('the live channel', () => {
  const wsUrl = () => {
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return `ws://127.0.0.1:${address.port}`;
  };

  /** How the server answered: refused before the upgrade (status), closed, or a message. */
  const outcome = (path: string, headers: Record<string, string>) =>
    new Promise<string>((resolve) => {
      const socket = new WebSocket(`${wsUrl()}${path}`, { headers });
      socket.on('unexpected-response', (_req, res) => {
        resolve(`refused ${res.statusCode}`);
        socket.terminate();
      });
      socket.on('message', (raw: Buffer) => {
        // Any client's first messages: the type is all this test reads.
        resolve(`message ${String((JSON.parse(raw.toString()) as { type?: unknown }).type)}`);
        socket.close();
      });
      socket.on('close', (code) => resolve(`closed ${code}`));
      socket.on('error', () => undefined);
    });

  it('refuses a socket without a session', async () => {
    expect(await outcome('/ws/', {})).toBe('closed 1008');
    expect(await outcome('/ws', { cookie: 'berth_session=forged' })).toBe('closed 1008');
  });

  it('refuses a socket from a foreign origin before upgrading, on /ws and /ws/', async () => {
    for (const path of ['/ws', '/ws/']) {
      expect(await outcome(path, { cookie, origin: EVIL })).toBe('refused 403');
      expect(await outcome(path, { cookie, 'sec-fetch-site': 'cross-site' })).toBe('refused 403');
    }
  });

  it('accepts its own origin', async () => {
    const own = new URL(wsUrl().replace('ws:', 'http:')).origin;
    // Accepted: the full container state comes first, then initial_state.
    expect(await outcome('/ws/', { cookie, origin: own })).toMatch(
      /^message (containers_update|initial_state)$/,
    );
  });
});

describe('behind a reverse proxy', () => {
  const PUBLIC_ORIGIN = 'https://berth.example.com';

  it('accepts the configured origins besides its own', async () => {
    const proxied = await buildTestApp({ BERTH_ALLOWED_ORIGINS: PUBLIC_ORIGIN });
    const login = (origin: string) =>
      proxied.app.inject({
        method: 'POST',
        url: '/api/v2/auth/login',
        headers: { origin },
        payload: TEST_ADMIN,
      });
    expect((await login(PUBLIC_ORIGIN)).statusCode).toBe(200);
    expect((await login(EVIL)).statusCode).toBe(403);
    await proxied.close();
  });

  it('reads X-Forwarded-* only when BERTH_TRUST_PROXY is set', async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
    const trusting = await buildTestApp({ BERTH_TRUST_PROXY: 'true' });
    const res = await trusting.app.inject({
      method: 'POST',
      url: '/api/v2/auth/login',
      headers: { ...forwarded, host: 'localhost', origin: 'https://localhost' },
      payload: TEST_ADMIN,
    });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'berth_session')?.secure).toBe(true);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    await trusting.close();

    const plain = await t.app.inject({ url: '/api/health', headers: forwarded });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('limits sign-in attempts per forwarded client address when trusted', async () => {
    const trusting = await buildTestApp({ BERTH_TRUST_PROXY: 'true' });
    const attempt = (client: string, username: string) =>
      trusting.app.inject({
        method: 'POST',
        url: '/api/v2/auth/login',
        headers: { 'x-forwarded-for': client },
        payload: { username, password: 'wrong-wrong' },
      });
    for (let i = 0; i < 20; i++) await attempt('203.0.113.1', `u${i}`);
    expect((await attempt('203.0.113.1', 'v')).statusCode).toBe(429);
    expect((await attempt('203.0.113.2', 'v')).statusCode).toBe(401);
    await trusting.close();
  });
});
