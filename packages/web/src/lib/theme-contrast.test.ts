// @vitest-environment node
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CHART_AXES, seriesColor } from './theme';

/**
 * WCAG contrast of the main text/surface pairs, computed from the token values themselves:
 * Tailwind's palette (the dark theme) and the light theme's overrides in index.css.
 */
const tailwindCss = readFileSync(
  createRequire(import.meta.url).resolve('tailwindcss/theme.css'),
  'utf8',
);
const indexCss = readFileSync(new URL('../index.css', import.meta.url), 'utf8');

type Rgb = readonly [number, number, number]; // sRGB, 0..1

const variables = (css: string): Map<string, string> =>
  new Map([...css.matchAll(/--color-([\w-]+):\s*([^;]+);/g)].map((m) => [m[1] ?? '', m[2] ?? '']));

function lightBlock(css: string): string {
  const start = css.indexOf(":root[data-theme='light'] {");
  if (start < 0) throw new Error('index.css has no light theme block');
  return css.slice(start, css.indexOf('}', start));
}

const DARK = new Map([
  ...variables(tailwindCss),
  ...variables(indexCss.slice(0, indexCss.indexOf('}'))),
]);
const LIGHT = new Map([...DARK, ...variables(lightBlock(indexCss))]);

/** oklch(L% C H) through OKLab to sRGB, clipped to the gamut as a browser shows it. */
function oklchToRgb(l: number, c: number, h: number): Rgb {
  const a = c * Math.cos((h * Math.PI) / 180);
  const b = c * Math.sin((h * Math.PI) / 180);
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
    -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
    -0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_,
  ];
  const encode = (v: number) => {
    const x = Math.min(1, Math.max(0, v));
    return x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
  };
  return [encode(linear[0] ?? 0), encode(linear[1] ?? 0), encode(linear[2] ?? 0)];
}

function parse(value: string): Rgb {
  const ok = /^oklch\(([\d.]+)%\s+([\d.]+)\s+([\d.]+)\)$/.exec(value.trim());
  if (ok) return oklchToRgb(Number(ok[1]) / 100, Number(ok[2]), Number(ok[3]));
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim())?.[1];
  if (hex === undefined) throw new Error(`cannot read colour ${value}`);
  const full = hex.length === 3 ? hex.replace(/./g, '$&$&') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as unknown as Rgb;
}

const token = (theme: Map<string, string>, name: string): Rgb => {
  const value = theme.get(name);
  if (value === undefined) throw new Error(`no --color-${name}`);
  return parse(value);
};

/** A colour at `alpha` over a surface, as `bg-red-950/40` paints (composited in sRGB). */
const over = (color: Rgb, alpha: number, surface: Rgb): Rgb =>
  color.map((v, i) => v * alpha + (surface[i] ?? 0) * (1 - alpha)) as unknown as Rgb;

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe('light theme contrast (WCAG AA, 4.5:1 for text)', () => {
  const t = (name: string) => token(LIGHT, name);
  const surfaces = {
    page: t('slate-950'),
    card: t('slate-900'),
    'hovered row': t('slate-800'),
  };

  it('is a light theme: pages and cards light, text dark', () => {
    expect(luminance(surfaces.page)).toBeGreaterThan(0.8);
    expect(luminance(surfaces.card)).toBeGreaterThan(0.9);
    expect(luminance(t('slate-100'))).toBeLessThan(0.05);
  });

  it.each(['white', 'slate-50', 'slate-100', 'slate-200', 'slate-300', 'slate-400', 'slate-500'])(
    'text-%s on the page, cards and hovered rows',
    (text) => {
      for (const [surface, color] of Object.entries(surfaces))
        expect(contrast(t(text), color), surface).toBeGreaterThanOrEqual(4.5);
    },
  );

  it.each([
    'red-200',
    'red-300',
    'red-400',
    'amber-200',
    'amber-300',
    'amber-400',
    'emerald-200',
    'emerald-300',
    'emerald-400',
    'sky-200',
    'sky-300',
    'sky-400',
    'orange-300',
    'orange-400',
    'indigo-200',
    'violet-400',
    'accent',
  ])('text-%s on cards, the page and its own tinted box', (text) => {
    const hue = text.split('-')[0] ?? '';
    const tint =
      hue === 'accent'
        ? over(t('accent'), 0.15, surfaces.card)
        : over(t(`${hue}-950`), 0.4, surfaces.card);
    for (const [surface, color] of Object.entries({ ...surfaces, tint }))
      expect(contrast(t(text), color), surface).toBeGreaterThanOrEqual(4.5);
  });

  it('white text on solid buttons and badges', () => {
    const white = parse('#fff'); // index.css keeps text-white white on solid fills
    for (const fill of ['accent', 'accent-strong', 'red-600'])
      expect(contrast(white, t(fill)), fill).toBeGreaterThanOrEqual(4.5);
  });

  it('chart series and log names on cards; axis labels', () => {
    for (const dark of [
      '#38bdf8',
      '#a78bfa',
      '#34d399',
      '#fbbf24',
      '#f472b6',
      '#fb923c',
      '#22d3ee',
      '#a3e635',
    ])
      expect(
        contrast(parse(seriesColor(dark, 'light')), surfaces.card),
        dark,
      ).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parse(CHART_AXES.light.labels), surfaces.card)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('dark theme contrast, unchanged by the light theme', () => {
  const t = (name: string) => token(DARK, name);

  it.each(['white', 'slate-100', 'slate-200', 'slate-300', 'slate-400'])(
    'text-%s on pages and cards',
    (text) => {
      for (const surface of ['slate-950', 'slate-900'])
        expect(contrast(t(text), t(surface)), surface).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('reads the palette right: slate 950 against white is near the maximum', () => {
    expect(contrast(t('slate-950'), parse('#fff'))).toBeGreaterThan(19);
  });
});
