import { describe, expect, it } from 'vitest';
import {
  MIN_ZOOM_SECONDS,
  parseCustomRange,
  RANGE_PRESETS,
  stepOf,
  tickOf,
  toLocalInput,
  windowOf,
  zoomWindow,
} from './range';

describe('windowOf', () => {
  it('ends a preset at now rounded down to its tick, so renders within a tick ask once', () => {
    const now = Date.UTC(2026, 11, 4, 14, 5, 37);
    const w = windowOf({ kind: 'preset', preset: '1h' }, now);
    expect(w.to).toBe(Math.floor(now / 1000 / 10) * 10);
    expect(w.to - w.from).toBe(3600);
    expect(windowOf({ kind: 'preset', preset: '1h' }, now + 2000)).toEqual(w);
  });

  it('spans each preset exactly', () => {
    for (const p of RANGE_PRESETS) {
      const w = windowOf({ kind: 'preset', preset: p.id }, 1_800_000_000_000);
      expect(w.to - w.from).toBe(p.seconds);
      expect(w.to % p.tick).toBe(0);
    }
    expect(RANGE_PRESETS.map((p) => p.id)).toEqual(['1h', '6h', '24h', '7d', '30d', '90d']);
  });

  it('keeps a custom window as it is, and never moves it', () => {
    const choice = { kind: 'custom', from: 100, to: 5000 } as const;
    expect(windowOf(choice, Date.now())).toEqual({ from: 100, to: 5000 });
    expect(tickOf(choice)).toBeNull();
    expect(tickOf({ kind: 'preset', preset: '7d' })).toBe(300);
  });

  it('asks 30 s points for 6 h (current 10 s points merged), else lets the server pick', () => {
    expect(stepOf({ kind: 'preset', preset: '6h' })).toBe(30);
    expect(stepOf({ kind: 'preset', preset: '1h' })).toBeUndefined();
    expect(stepOf({ kind: 'preset', preset: '30d' })).toBeUndefined();
    expect(stepOf({ kind: 'custom', from: 0, to: 60 })).toBeUndefined();
  });
});

describe('zoomWindow', () => {
  const within = { from: 1000, to: 1000 + 86_400 };

  it('takes the dragged span in whole seconds', () => {
    expect(zoomWindow(within, 5000.4, 9000.6)).toEqual({ from: 5000, to: 9001 });
    // Dragged right to left reads the same.
    expect(zoomWindow(within, 9000.6, 5000.4)).toEqual({ from: 5000, to: 9001 });
  });

  it('stays inside the window it was dragged on', () => {
    expect(zoomWindow(within, 0, 4000)).toEqual({ from: 1000, to: 4000 });
    expect(zoomWindow(within, 80_000, 99_999)).toEqual({ from: 80_000, to: within.to });
  });

  it('widens a narrow drag around its middle to the narrowest zoom', () => {
    const z = zoomWindow(within, 5000, 5010);
    expect(z).toEqual({ from: 5005 - MIN_ZOOM_SECONDS / 2, to: 5005 + MIN_ZOOM_SECONDS / 2 });
    // At an edge it is pushed back inside.
    expect(zoomWindow(within, 1001, 1002)).toEqual({ from: 1000, to: 1000 + MIN_ZOOM_SECONDS });
    expect(zoomWindow(within, within.to - 2, within.to)).toEqual({
      from: within.to - MIN_ZOOM_SECONDS,
      to: within.to,
    });
  });

  it('answers null for no selection or a window already at the narrowest', () => {
    expect(zoomWindow(within, 5000, 5000)).toBeNull();
    expect(zoomWindow(within, Number.NaN, 5000)).toBeNull();
    expect(zoomWindow({ from: 0, to: MIN_ZOOM_SECONDS }, 10, 20)).toBeNull();
  });
});

describe('parseCustomRange', () => {
  it('reads datetime-local values as local time', () => {
    const from = new Date(2026, 10, 1, 8, 30).getTime() / 1000;
    const to = new Date(2026, 10, 2, 9, 0).getTime() / 1000;
    expect(parseCustomRange('2026-11-01T08:30', '2026-11-02T09:00')).toEqual({
      window: { from, to },
    });
    expect(toLocalInput(from)).toBe('2026-11-01T08:30');
  });

  it('names the input that is wrong', () => {
    expect(parseCustomRange('', '2026-11-02T09:00')).toEqual({
      error: 'From: enter a date and time',
    });
    expect(parseCustomRange('2026-11-01T08:30', 'soon')).toEqual({
      error: 'To: enter a date and time',
    });
    expect(parseCustomRange('2026-11-02T09:00', '2026-11-01T08:30')).toEqual({
      error: 'From must be before To',
    });
  });
});
