import {
  THEME_CHOICES,
  THEME_STORAGE_KEY,
  type ResolvedTheme,
  type ThemeChoice,
} from '@berth/contracts/theme';
import { useSyncExternalStore } from 'react';

/**
 * The colour theme. The choice lives in this browser's localStorage, not in the account's
 * preferences: the page must know it before its first paint (the boot script in index.html
 * reads it before the first request, on /login too), and light or dark is a matter of the device
 * and its surroundings (a phone in daylight, a desk at night) more than of the account.
 */
export type { ResolvedTheme, ThemeChoice };
export { THEME_CHOICES };

const LIGHT_QUERY = '(prefers-color-scheme: light)';
const listeners = new Set<() => void>();

function readChoice(): ThemeChoice {
  try {
    const saved = localStorage.getItem(THEME_STORAGE_KEY);
    return saved === 'light' || saved === 'dark' ? saved : 'system';
  } catch {
    return 'system'; // storage blocked: the device's setting
  }
}

const systemTheme = (): ResolvedTheme =>
  window.matchMedia(LIGHT_QUERY).matches ? 'light' : 'dark';

export const resolveTheme = (choice: ThemeChoice, system: ResolvedTheme): ResolvedTheme =>
  choice === 'system' ? system : choice;

/**
 * The browser's bar (and an installed app's title bar) takes its colour from index.html's two
 * theme-color tags, one per system setting; a theme chosen in the menu overrides that by
 * switching the other tag off.
 */
export function syncBrowserBar(choice: ThemeChoice = readChoice()): void {
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const system = (meta.dataset.media ??= meta.getAttribute('media') ?? '');
    const light = system.includes('light');
    const media = choice === 'system' ? system : (choice === 'light') === light ? 'all' : 'not all';
    meta.setAttribute('media', media);
  }
}

/** Writes the theme onto <html>, where index.css reads it (as the boot script does). */
function apply(): void {
  document.documentElement.setAttribute('data-theme', resolveTheme(readChoice(), systemTheme()));
  syncBrowserBar();
  for (const notify of listeners) notify();
}

function subscribe(notify: () => void): () => void {
  if (listeners.size === 0) {
    window.matchMedia(LIGHT_QUERY).addEventListener('change', apply);
    window.addEventListener('storage', onStorage);
  }
  listeners.add(notify);
  return () => {
    listeners.delete(notify);
    if (listeners.size === 0) {
      window.matchMedia(LIGHT_QUERY).removeEventListener('change', apply);
      window.removeEventListener('storage', onStorage);
    }
  };
}

/** Another tab changed the choice. */
function onStorage(event: StorageEvent): void {
  if (event.key === THEME_STORAGE_KEY) apply();
}

/** Saves the choice and applies it at once. */
export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage blocked: the choice holds for this page only.
    document.documentElement.setAttribute('data-theme', resolveTheme(choice, systemTheme()));
    syncBrowserBar(choice);
    for (const notify of listeners) notify();
    return;
  }
  apply();
}

/** The saved choice: System, Light or Dark. */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, readChoice, () => 'system');
}

/** The theme on screen now, for what CSS cannot reach (canvas charts, inline colours). */
export function useResolvedTheme(): ResolvedTheme {
  return useSyncExternalStore(
    subscribe,
    () => (document.documentElement.getAttribute('data-theme') === 'light' ? 'light' : 'dark'),
    () => 'dark',
  );
}

/**
 * Series and log-name colours are Tailwind's 400 shades, bright on the dark theme; on the
 * light one each becomes its 700 shade, which keeps 4.5:1 on white (theme-contrast.test.ts).
 */
const LIGHT_SERIES: Readonly<Record<string, string>> = {
  '#38bdf8': '#0369a1', // sky
  '#a78bfa': '#6d28d9', // violet
  '#34d399': '#047857', // emerald
  '#fbbf24': '#b45309', // amber
  '#f472b6': '#be185d', // pink
  '#fb923c': '#c2410c', // orange
  '#22d3ee': '#0e7490', // cyan
  '#a3e635': '#4d7c0f', // lime
};

export const seriesColor = (color: string, theme: ResolvedTheme): string =>
  theme === 'light' ? (LIGHT_SERIES[color.toLowerCase()] ?? color) : color;

/** A chart's axis labels and grid lines (slate 500 / 800 on dark, their mirror on light). */
export const CHART_AXES: Readonly<Record<ResolvedTheme, { labels: string; grid: string }>> = {
  dark: { labels: '#64748b', grid: '#1e293b' },
  light: { labels: '#475569', grid: '#e2e8f0' },
};
