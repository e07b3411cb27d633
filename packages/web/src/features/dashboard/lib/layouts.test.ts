import type { Host } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { groupHostsByTag, UNTAGGED } from './group-hosts';
import {
  cardsInWindow,
  defaultHostLayout,
  gridHeightPx,
  hostLayoutFor,
  orderedBy,
  readingOrder,
} from './host-layouts';
import { DEFAULT_WIDGETS, widgetsFor } from './widget-layout';

const host = (id: string, tags: string[], status: Host['status'] = 'online') =>
  ({ id, name: id, tags, status }) as Host;

describe('host card layouts', () => {
  it('lays out 3 expanded cards per row (4×10) and 4 standard ones (3×8) with their limits', () => {
    const expanded = defaultHostLayout(['a', 'b', 'c', 'd'], 'expanded');
    expect(expanded.map(({ x, y, w, h }) => [x, y, w, h])).toEqual([
      [0, 0, 4, 10],
      [4, 0, 4, 10],
      [8, 0, 4, 10],
      [0, 10, 4, 10],
    ]);
    expect(expanded[0]).toMatchObject({ minW: 3, minH: 6, maxW: 12, maxH: 30 });
    const standard = defaultHostLayout(['a', 'b', 'c', 'd', 'e'], 'standard');
    expect(standard[4]).toMatchObject({ x: 0, y: 8, w: 3, h: 8, maxH: 20 });
  });

  it('uses a saved layout only when it names exactly the current hosts', () => {
    const saved = [
      { i: 'b', x: 0, y: 0, w: 6, h: 12 },
      { i: 'a', x: 6, y: 0, w: 6, h: 12 },
    ];
    expect(hostLayoutFor(saved, ['a', 'b'], 'expanded')[0]).toMatchObject({ i: 'b', w: 6 });
    expect(hostLayoutFor(saved, ['a', 'b', 'c'], 'expanded')[0]).toMatchObject({ i: 'a', w: 4 });
    expect(hostLayoutFor(saved, ['a', 'x'], 'expanded')[0]).toMatchObject({ i: 'a', w: 4 });
  });

  it('ignores a saved order whose ids do not match', () => {
    const hosts = [host('a', []), host('b', [])];
    expect(orderedBy(hosts, ['b', 'a']).map((h) => h.id)).toEqual(['b', 'a']);
    expect(orderedBy(hosts, ['b']).map((h) => h.id)).toEqual(['a', 'b']);
    expect(orderedBy(hosts, ['b', 'b']).map((h) => h.id)).toEqual(['a', 'b']);
  });
});

describe('tag groups', () => {
  it('groups by first tag with Untagged last and counts statuses', () => {
    const groups = groupHostsByTag([
      host('a', ['prod', 'eu']),
      host('b', []),
      host('c', ['dev'], 'offline'),
      host('d', ['prod'], 'error'),
    ]);
    expect(groups.map((g) => g.tag)).toEqual(['dev', 'prod', UNTAGGED]);
    expect(groups[1]?.counts).toEqual({ online: 1, offline: 0, error: 1 });
  });

  it('follows a saved order that names exactly the current groups', () => {
    const hosts = [host('a', ['prod']), host('b', [])];
    expect(groupHostsByTag(hosts, [UNTAGGED, 'prod']).map((g) => g.tag)).toEqual([
      UNTAGGED,
      'prod',
    ]);
    expect(groupHostsByTag(hosts, ['gone', 'prod']).map((g) => g.tag)).toEqual(['prod', UNTAGGED]);
  });
});

describe('widgets', () => {
  it('has the five default widgets with minimum sizes equal to their sizes', () => {
    expect(DEFAULT_WIDGETS.map(({ id, x, y, w, h }) => [id, x, y, w, h])).toEqual([
      ['host-stats', 0, 0, 2, 2],
      ['container-stats', 2, 0, 2, 2],
      ['updates', 4, 0, 2, 2],
      ['recent-events', 6, 0, 3, 2],
      ['alert-summary', 9, 0, 3, 2],
    ]);
    expect(DEFAULT_WIDGETS.every((w) => w.minW === w.w && w.minH === w.h)).toBe(true);
  });

  it('keeps saved positions but never below the minimum size', () => {
    const saved = DEFAULT_WIDGETS.map((w) => (w.id === 'updates' ? { ...w, x: 0, y: 4, w: 1 } : w));
    const updates = widgetsFor(saved).find((w) => w.id === 'updates');
    expect(updates).toMatchObject({ x: 0, y: 4, w: 2 });
    expect(widgetsFor(saved.slice(1))).toEqual(DEFAULT_WIDGETS);
  });

  it('tells the cards in the window from where the grid starts in it', () => {
    // Standard cards are 8 rows of 36 px with 12 px between: rows of cards 384 px apart.
    const ids = Array.from({ length: 12 }, (_, n) => `h${n}`);
    const layout = defaultHostLayout(ids, 'standard');
    // A 900 px window with the grid 190 px down (title and KPI bar): the third row starts
    // at 958 px, below the window.
    expect([...cardsInWindow(layout, 900, 190)]).toEqual(ids.slice(0, 8));
    expect([...cardsInWindow(layout, 900, 0)]).toEqual(ids);
    expect([...cardsInWindow(layout, 400, 190)]).toEqual(ids.slice(0, 4));
  });
});

describe('the phone column', () => {
  it('reads a saved grid top to bottom, then left to right', () => {
    const layout = [
      { i: 'c', x: 0, y: 8, w: 3, h: 8 },
      { i: 'b', x: 6, y: 0, w: 3, h: 8 },
      { i: 'a', x: 0, y: 0, w: 3, h: 8 },
      { i: 'd', x: 3, y: 8, w: 3, h: 8 },
    ];
    expect(readingOrder(layout).map((item) => item.i)).toEqual(['a', 'b', 'c', 'd']);
    expect(layout[0]?.i).toBe('c');
  });

  it('gives an item the height it has in the grid: its rows and the margins between them', () => {
    expect(gridHeightPx(8, 36)).toBe(8 * 36 + 7 * 12);
    expect(gridHeightPx(1, 120)).toBe(120);
  });
});
