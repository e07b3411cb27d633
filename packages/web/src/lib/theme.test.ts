import { THEME_BOOT_SCRIPT, THEME_STORAGE_KEY } from '@berth/contracts/theme';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  seriesColor,
  setThemeChoice,
  syncBrowserBar,
  useResolvedTheme,
  useThemeChoice,
} from './theme';

/** A device whose light/dark setting a test flips; matchMedia answers and notifies. */
let systemLight = false;
const listeners = new Set<() => void>();
const original: unknown = Reflect.get(window, 'matchMedia');

beforeEach(() => {
  systemLight = false;
  localStorage.clear();
  window.matchMedia = (query: string) =>
    ({
      matches: query.includes('light') && systemLight,
      media: query,
      addEventListener: (_: string, fn: () => void) => listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    }) as unknown as MediaQueryList;
});
afterEach(() => {
  Reflect.set(window, 'matchMedia', original);
  listeners.clear();
});

const flipSystem = (light: boolean) => {
  systemLight = light;
  for (const fn of [...listeners]) fn();
};
const onPage = () => document.documentElement.getAttribute('data-theme');

describe('theme', () => {
  it('the boot script follows the saved choice, else the system', () => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the inline script's own text
    const boot = new Function(THEME_BOOT_SCRIPT) as () => void;
    boot();
    expect(onPage()).toBe('dark');
    systemLight = true;
    boot();
    expect(onPage()).toBe('light');
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    boot();
    expect(onPage()).toBe('dark');
  });

  it('a choice is saved and applied; System follows the device as it changes', () => {
    const { result } = renderHook(() => ({ choice: useThemeChoice(), on: useResolvedTheme() }));
    act(() => setThemeChoice('light'));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(result.current).toEqual({ choice: 'light', on: 'light' });
    act(() => flipSystem(false));
    expect(onPage()).toBe('light'); // an explicit choice ignores the device

    act(() => setThemeChoice('system'));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(result.current).toEqual({ choice: 'system', on: 'dark' });
    act(() => flipSystem(true));
    expect(result.current.on).toBe('light');
    expect(onPage()).toBe('light');
  });

  it("a chosen theme sets the browser bar's colour; System gives it back to the device", () => {
    document.head.innerHTML =
      '<meta name="theme-color" media="(prefers-color-scheme: dark)" content="#020617">' +
      '<meta name="theme-color" media="(prefers-color-scheme: light)" content="#f8fafc">';
    const media = () =>
      [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((m) =>
        m.getAttribute('media'),
      );
    syncBrowserBar('light');
    expect(media()).toEqual(['not all', 'all']);
    syncBrowserBar('dark');
    expect(media()).toEqual(['all', 'not all']);
    syncBrowserBar('system');
    expect(media()).toEqual(['(prefers-color-scheme: dark)', '(prefers-color-scheme: light)']);
    document.head.innerHTML = '';
  });

  it('chart colours darken on the light theme only', () => {
    expect(seriesColor('#38bdf8', 'dark')).toBe('#38bdf8');
    expect(seriesColor('#38BDF8', 'light')).toBe('#0369a1');
    expect(seriesColor('#123456', 'light')).toBe('#123456');
  });
});
