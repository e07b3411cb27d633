import { describe, expect, it } from 'vitest';
import { paths } from '../paths';
import { NAV_ITEMS, pageTitleOf } from './nav-items';

describe('pageTitleOf', () => {
  it('names every sidebar screen by its entry', () => {
    for (const item of NAV_ITEMS) expect(pageTitleOf(item.to)).toBe(item.label);
  });

  it('names the alert rules, ignores a trailing slash, and falls back to the product', () => {
    expect(pageTitleOf(paths.alertRules)).toBe('Alert Rules');
    expect(pageTitleOf('/containers/')).toBe('Containers');
    expect(pageTitleOf('/')).toBe('Dashboard');
    expect(pageTitleOf('/nowhere')).toBe('Berth');
  });
});
