import { METRICS_TIERS, type GlobalSettings, type MetricsTierId } from '@berth/contracts';
import { badRequest } from '../../platform/http-errors.js';

/** Tier numbers as stored: 0 = 10 s, 1 = 1 min, 2 = 15 min. */
export type TierNo = 0 | 1 | 2;

export interface Tier {
  no: TierNo;
  id: MetricsTierId;
  /** Seconds per point. */
  resolution: number;
  /** How long its points are kept, seconds. */
  keepS: number;
}

/** Hours each tier keeps (the server setting; defaults from the contract). */
export interface HistoryRetention {
  rawHours: number;
  minuteHours: number;
  quarterHours: number;
}

export const DEFAULT_RETENTION: HistoryRetention = {
  rawHours: METRICS_TIERS[0].default_retention_hours,
  minuteHours: METRICS_TIERS[1].default_retention_hours,
  quarterHours: METRICS_TIERS[2].default_retention_hours,
};

type RetentionSettings = Pick<
  GlobalSettings,
  'history_10s_retention_hours' | 'history_1m_retention_hours' | 'history_15m_retention_hours'
>;

/**
 * Each tier's retention as Settings → System has it, read each time it is asked (each
 * maintenance round and query), so a change applies at the next round.
 */
export const retentionFromSettings =
  (settings: { get(): RetentionSettings }) => (): HistoryRetention => {
    const s = settings.get();
    return {
      rawHours: s.history_10s_retention_hours,
      minuteHours: s.history_1m_retention_hours,
      quarterHours: s.history_15m_retention_hours,
    };
  };

export function tiersOf(retention: HistoryRetention): readonly [Tier, Tier, Tier] {
  const hours = [retention.rawHours, retention.minuteHours, retention.quarterHours];
  return [0, 1, 2].map((no) => ({
    no: no as TierNo,
    id: METRICS_TIERS[no]?.id ?? '10s',
    resolution: METRICS_TIERS[no]?.resolution ?? 10,
    keepS: (hours[no] ?? 0) * 3600,
  })) as unknown as readonly [Tier, Tier, Tier];
}

/** A chart wants at most about this many points; a longer range is read from a coarser tier. */
export const MAX_POINTS = 1500;

export interface QueryPlan {
  tier: Tier;
  /** Seconds per answered point: the tier's resolution or a multiple of it. */
  step: number;
  from: number;
  to: number;
}

const human = (s: number) =>
  s % 86_400 === 0 ? `${s / 86_400} days` : s % 3600 === 0 ? `${s / 3600} h` : `${s} s`;

/**
 * Which tier answers a range (Unix seconds) at `now`. Without a step: the finest tier that
 * still keeps `from` and gives at most MAX_POINTS (else the coarsest that keeps it, its points
 * merged). With one: the coarsest tier that keeps `from` whose resolution the step reaches
(the fewest rows to read).
 * Bad input is a 400 naming the field.
 */
export function planQuery(
  tiers: readonly Tier[],
  now: number,
  from: number,
  to: number,
  step: number | undefined,
): QueryPlan {
  if (from >= to) throw badRequest('from: must be before to');
  const longest = Math.max(...tiers.map((t) => t.keepS));
  if (to - from > longest)
    throw badRequest(`from: the range is longer than any tier keeps (${human(longest)})`);
  const keeping = tiers.filter((t) => t.keepS > 0 && now - t.keepS <= from);
  // Older than every tier keeps: the coarsest answers (with what is left, maybe nothing).
  const candidates = keeping.length > 0 ? keeping : tiers.slice(-1);
  const finest = candidates[0] as Tier;
  if (step !== undefined) {
    const tier = candidates.findLast((t) => t.resolution <= step);
    if (tier === undefined || step < finest.resolution)
      throw badRequest(
        `step: must be at least ${finest.resolution} s, the resolution of the finest tier that keeps this range (${finest.id})`,
      );
    // Whole multiples of the tier's resolution, so merged points do not straddle buckets.
    return { tier, step: Math.floor(step / tier.resolution) * tier.resolution, from, to };
  }
  const tier =
    candidates.find((t) => (to - from) / t.resolution <= MAX_POINTS) ?? candidates.at(-1) ?? finest;
  const points = (to - from) / tier.resolution;
  const merge = points > MAX_POINTS ? Math.ceil(points / MAX_POINTS) : 1;
  return { tier, step: tier.resolution * merge, from, to };
}
