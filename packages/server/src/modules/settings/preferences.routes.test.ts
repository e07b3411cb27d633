import { DEFAULT_PREFERENCES } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
});
afterEach(() => t.close());

const patch = (payload: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/v2/user/preferences',
    headers: { cookie },
    payload: payload as object,
  });
const get = () => t.app.inject({ url: '/api/v2/user/preferences', headers: { cookie } });

describe('user preferences', () => {
  it('starts with the defaults', async () => {
    expect((await get()).json()).toEqual(DEFAULT_PREFERENCES);
    expect(DEFAULT_PREFERENCES).toMatchObject({ simplified_workflow: true, view_mode: 'standard' });
  });

  it('applies a partial update and merges dashboard key by key', async () => {
    await patch({ dashboard: { showStatsWidgets: true } });
    const res = await patch({ sidebar_collapsed: true, dashboard: { compactHostOrder: ['h1'] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      sidebar_collapsed: true,
      simplified_workflow: true,
      dashboard: {
        optimizedLoading: true,
        showKpiBar: true,
        showStatsWidgets: true,
        compactHostOrder: ['h1'],
      },
    });
  });

  it('keeps preferences across a restart', async () => {
    await patch({ host_table_sort: [{ id: 'name', desc: true }], collapsed_groups: ['prod'] });
    await t.restart();
    expect((await get()).json()).toMatchObject({
      host_table_sort: [{ id: 'name', desc: true }],
      collapsed_groups: ['prod'],
    });
  });

  it('refuses unknown fields, wrong types and documents over the size limit', async () => {
    expect((await patch({ favourite_colour: 'red' })).statusCode).toBe(400);
    const wrong = await patch({ sidebar_collapsed: 'yes' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ detail: string }>().detail).toBe('Sidebar collapsed must be true or false');
    const big = Array.from({ length: 1000 }, (_, i) => `tag-${i}-${'x'.repeat(90)}`);
    const tooLarge = await patch({
      collapsed_groups: big,
      dashboard: { tagGroupOrder: big, compactHostOrder: big.map((b) => `${b}${'y'.repeat(50)}`) },
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json<{ detail: string }>().detail).toMatch(/^Preferences must be at most /);
    expect((await get()).json()).toEqual(DEFAULT_PREFERENCES);
  });

  it('reads and writes the view mode and the event sort order through their own calls', async () => {
    expect(
      (await t.app.inject({ url: '/api/user/view-mode', headers: { cookie } })).json(),
    ).toEqual({ view_mode: 'standard' });
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/user/view-mode',
      headers: { cookie },
      payload: { view_mode: 'compact' },
    });
    expect(set.json()).toEqual({ view_mode: 'compact' });
    expect((await get()).json()).toMatchObject({ view_mode: 'compact' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/user/view-mode',
      headers: { cookie },
      payload: { view_mode: 'huge' },
    });
    expect(bad.statusCode).toBe(400);
    const order = await t.app.inject({
      method: 'POST',
      url: '/api/user/event-sort-order',
      headers: { cookie },
      payload: { sort_order: 'asc' },
    });
    expect(order.json()).toEqual({ sort_order: 'asc' });
    expect(
      (await t.app.inject({ url: '/api/user/event-sort-order', headers: { cookie } })).json(),
    ).toEqual({ sort_order: 'asc' });
  });
});
