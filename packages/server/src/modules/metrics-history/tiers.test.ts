import { describe, expect, it } from 'vitest';
import { HttpError } from '../../platform/http-errors.js';
import { DEFAULT_RETENTION, planQuery, tiersOf } from './tiers.js';

const tiers = tiersOf(DEFAULT_RETENTION);
const now = 1_800_000_000;
const H = 3600;
const D = 86_400;

const detailOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (err instanceof HttpError) return `${err.statusCode} ${err.message}`;
    throw err;
  }
  return 'no error';
};

describe('the tier a query is answered from', () => {
  it('is the finest that keeps the range without too many points', () => {
    expect(planQuery(tiers, now, now - H, now, undefined)).toMatchObject({
      tier: { id: '10s' },
      step: 10,
    });
    // 6 h of 10 s points is 2,160: the minute tier answers.
    expect(planQuery(tiers, now, now - 6 * H, now, undefined).tier.id).toBe('1m');
    expect(planQuery(tiers, now, now - 24 * H, now, undefined).tier.id).toBe('1m');
    expect(planQuery(tiers, now, now - 7 * D, now, undefined).tier.id).toBe('15m');
    expect(planQuery(tiers, now, now - 30 * D, now, undefined)).toMatchObject({
      tier: { id: '15m' },
      step: 1800,
    });
  });

  it('is one that still keeps `from`', () => {
    // An hour, two days ago: the 10 s points of then are gone.
    expect(planQuery(tiers, now, now - 2 * D, now - 2 * D + H, undefined).tier.id).toBe('1m');
    expect(planQuery(tiers, now, now - 20 * D, now - 20 * D + H, undefined).tier.id).toBe('15m');
  });

  it('follows an asked step from the coarsest tier it reaches, merged in whole multiples of the resolution', () => {
    expect(planQuery(tiers, now, now - H, now, 60)).toMatchObject({ tier: { id: '1m' }, step: 60 });
    expect(planQuery(tiers, now, now - H, now, 25)).toMatchObject({
      tier: { id: '10s' },
      step: 20,
    });
    // The coarsest tier the step reaches: the fewest rows to read.
    expect(planQuery(tiers, now, now - 3 * D, now, 3600)).toMatchObject({
      tier: { id: '15m' },
      step: 3600,
    });
    expect(planQuery(tiers, now, now - 3 * D, now, 300)).toMatchObject({
      tier: { id: '1m' },
      step: 300,
    });
  });

  it('refuses bad ranges and steps, naming the field', () => {
    expect(detailOf(() => planQuery(tiers, now, now, now - 1, undefined))).toBe(
      '400 from: must be before to',
    );
    expect(detailOf(() => planQuery(tiers, now, now - 91 * D, now, undefined))).toBe(
      '400 from: the range is longer than any tier keeps (90 days)',
    );
    expect(detailOf(() => planQuery(tiers, now, now - H, now, 5))).toMatch(
      /^400 step: must be at least 10 s/,
    );
    // Ten days back only the 15 min tier keeps: a 1 min step is finer than it.
    expect(detailOf(() => planQuery(tiers, now, now - 10 * D, now, 60))).toMatch(
      /^400 step: must be at least 900 s, .*\(15m\)$/,
    );
  });
});
