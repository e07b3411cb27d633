import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterAll(() => t.close());

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const DAY = 86_400_000;

// The answer names the field first ("From must be before to", the error handler's wording).
describe('GET …/metrics with bad input', () => {
  it.each([
    ['from after to', `from=${iso(0)}&to=${iso(DAY)}`, /^from:? must be before to$/i],
    [
      'a range longer than any tier keeps',
      `from=${iso(100 * DAY)}&to=${iso(0)}`,
      /^from:? the range is longer than any tier keeps/i,
    ],
    [
      'a step below the resolution',
      `from=${iso(3600_000)}&step=5`,
      /^step:? must be at least 10 s/i,
    ],
    [
      'a step below the only tier that keeps the range',
      `from=${iso(30 * DAY)}&step=60`,
      /^step:? must be at least 900 s/i,
    ],
    ['a date that is none', 'from=yesterday', /^from:? /i],
    ['a step that is no number', 'step=soon', /^step:? /i],
    ['an unknown parameter', 'every=10', /every/],
  ])('%s: 400 naming the field', async (_what, query, detail) => {
    for (const path of ['/hosts/h1/metrics', '/hosts/h1/containers/c1/metrics']) {
      const res = await api.get<{ detail: string }>(`${path}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
  });

  it('answers 404 for a host or container nobody knows', async () => {
    expect((await api.get('/hosts/nope/metrics')).status).toBe(404);
    expect((await api.get('/hosts/nope/containers/c1/metrics')).status).toBe(404);
  });
});
