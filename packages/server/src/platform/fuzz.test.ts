import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../test/test-app.js';

/**
 * Property-based fuzzing of every route in app.routeTable: random path parameters, query
 * strings and JSON bodies, sent with a valid session. Whatever arrives, the answer is never a
 * 5xx. With BERTH_LOCAL_SOCKET=none and no hosts, no real container is touched.
 */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
});
afterAll(() => t.close());

const RUNS_PER_ROUTE = 150;
/**
 * Would end the fuzzing session itself (a random id of 1 is the admin fuzzing), so every route
 * after them would only meet the guard; covered by the auth and users tests.
 */
const SKIPPED = new Set([
  'POST /api/v2/auth/logout',
  'POST /api/users/:id/reset-password',
  'POST /api/users/:id/end-sessions',
]);
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const routes = () =>
  t.app.routeTable
    .filter((r) => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
    .filter((r) => r.url.startsWith('/api/') && !SKIPPED.has(`${r.method} ${r.url}`))
    .map((r) => ({ method: r.method as Method, url: r.url }));

const plausibleParam = fc.constantFrom(
  '1',
  '0',
  '-1',
  '999999999999',
  '1.5',
  'abc',
  'local',
  'a'.repeat(64),
  '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  '%00',
  '..%2F..%2Fetc',
  '%F0%9F%90%B3',
  'NaN',
  'null',
);
const param = fc.oneof(
  plausibleParam,
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s) || 'x'),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom('', '-1', '0', '1e309', 'true', '[]', '%', '%zz', '999999999999999999999'),
);
const queryKey = fc.oneof(
  fc.constantFrom('limit', 'offset', 'page', 'q', 'host_id', 'since', 'until', 'tail', 'type'),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
);
const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
const body = fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined });

describe('fuzzing every route', () => {
  it('finds the routes to fuzz', () => {
    expect(routes().length).toBeGreaterThan(20);
  });

  it('never answers 5xx to random parameters, queries and bodies', async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const route of routes()) {
      const names = route.url.match(/:[A-Za-z_]+/g) ?? [];
      await fc
        .assert(
          fc.asyncProperty(
            fc.array(param, { minLength: names.length, maxLength: names.length }),
            query,
            body,
            async (values, qs, payload) => {
              let url = route.url;
              values.forEach((value, i) => (url = url.replace(names[i] ?? '', value)));
              const hasBody = route.method !== 'GET' && payload !== undefined;
              const res = await t.app.inject({
                method: route.method,
                url: qs === '' ? url : `${url}?${qs}`,
                headers: { cookie, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
                ...(hasBody ? { payload: JSON.stringify(payload) } : {}),
              });
              statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
              if (res.statusCode >= 500) {
                failures.push(
                  `${route.method} ${url}?${qs} ${JSON.stringify(payload)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
                );
              }
              return res.statusCode < 500;
            },
          ),
          { numRuns: RUNS_PER_ROUTE, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
        )
        .catch((err: unknown) => {
          failures.push(String(err).split('\n').slice(0, 6).join(' | '));
        });
    }
    expect(failures).toEqual([]);
    // The session held: the fuzz reached the handlers, not just the guard.
    expect(statuses.get(401) ?? 0).toBeLessThan(routes().length * RUNS_PER_ROUTE * 0.2);
    if (process.env.FUZZ_REPORT) console.log(routes().length, Object.fromEntries(statuses));
    // Grows with the routes (150 requests each): ~35 s for ~230 on an idle machine.
  }, 240_000);
});
