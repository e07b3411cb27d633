import { LOOK_BACK_MIN_SECONDS, type AlertRuleKind } from '@berth/contracts';
import type { StoredRule } from '../rules.store.js';
import type { AlertRow } from '../alerts.store.js';
import type { AlertScopeRef } from './alert-lifecycle.js';
import {
  containerRules,
  containerScope,
  hostRules,
  hostScope,
  logFailure,
  type EngineContext,
} from './engine-context.js';
import { breaches } from './metric-window.js';

/** The history's mean of one gauge per series over a window (metrics-history's window means). */
export type LookBackPort = (q: {
  gauge: 'cpu' | 'mem_pct' | 'disk';
  scope: 'host' | 'container';
  hostIds: readonly string[];
  from: number;
  to: number;
}) => Promise<{ hostId: string; name: string; mean: number; first: number; last: number }[]>;

/** New 10 s points arrive once per bucket: reading a rule's window more often finds nothing new. */
export const LOOK_BACK_EVERY_MS = 10_000;
/**
 * A long window is read less often, a 180th of it (a day's every 8 minutes): one new bucket
 * moves its mean by a 180th at most, and its read costs what its length does (bench/look-back).
 */
const WINDOW_PARTS = 180;
const everyMs = (rule: StoredRule) =>
  Math.max(LOOK_BACK_EVERY_MS, (rule.duration_seconds * 1000) / WINDOW_PARTS);
/**
 * A window counts as watched whole when its oldest point is this close to its start: one
 * bucket, as a window's start rarely falls on a bucket's. A gap inside the window (Berth
 * restarting, a missed pass) only leaves points out of the mean.
 */
export const COVER_SLACK_S = 10;

const GAUGE: Partial<Record<AlertRuleKind, 'cpu' | 'mem_pct' | 'disk'>> = {
  cpu_high: 'cpu',
  memory_high: 'mem_pct',
  disk_low: 'disk',
};
const WHAT: Partial<Record<AlertRuleKind, string>> = {
  cpu_high: 'CPU',
  memory_high: 'Memory',
  disk_low: 'Disk use',
};

const pct = (n: number) => `${n.toFixed(1)}%`;
const span = (s: number) => (s % 60 === 0 ? `${s / 60} min` : `${s} s`);
const scopeKey = (ruleId: string, scopeId: string) => `${ruleId}\0${scopeId}`;

interface Subject {
  scope: AlertScopeRef;
  hostId: string;
  /** '' for a host. */
  name: string;
}

/**
 * Look-back metric rules: instead of the samples Berth saw since it started, each rule compares
 * the mean over its duration window read from the 10 s history tier, so a 30-minute rule that
 * was breaching before a restart fires as soon as the history says so after it. It raises once
 * the window is covered by history and its mean breaches; it clears once the mean over the
 * clear window (at least LOOK_BACK_MIN_SECONDS) stays on the good side of the clear threshold.
 */
export class LookBack {
  private readonly lastRun = new Map<string, number>();
  /** After a manual resolve: windows start no earlier than this (ms), so the mean must hold again. */
  private readonly notBefore = new Map<string, number>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly port: LookBackPort | undefined,
    private readonly hostIds: () => string[],
  ) {}

  /** Rules changed: every look-back rule reads its window at the next pass. */
  rulesChanged(): void {
    this.lastRun.clear();
  }

  forget(ruleId: string, scopeId: string): void {
    this.notBefore.set(scopeKey(ruleId, scopeId), this.ctx.now());
  }

  /** One pass: each look-back rule whose window may have new points is read and judged. */
  async pass(rules: StoredRule[], touches: { row: AlertRow; value: number; message: string }[]) {
    if (this.port === undefined) return;
    const now = this.ctx.now();
    for (const rule of rules) {
      if (now - (this.lastRun.get(rule.id) ?? Number.NEGATIVE_INFINITY) < everyMs(rule)) continue;
      this.lastRun.set(rule.id, now);
      await this.judge(rule, now, touches);
    }
  }

  private async judge(
    rule: StoredRule,
    now: number,
    touches: { row: AlertRow; value: number; message: string }[],
  ): Promise<void> {
    const gauge = GAUGE[rule.kind];
    if (gauge === undefined || this.port === undefined) return;
    const subjects = this.subjects(rule);
    if (subjects.length === 0) return;
    const hostIds = [...new Set(subjects.map((s) => s.hostId))];
    const to = Math.floor(now / 1000);
    const ask = (seconds: number) =>
      this.port?.({ gauge, scope: rule.scope, hostIds, from: to - seconds, to }) ??
      Promise.resolve([]);
    const byKey = (rows: Awaited<ReturnType<LookBackPort>>) =>
      new Map(rows.map((r) => [`${r.hostId}\0${r.name}`, r]));
    const raiseWindow = byKey(await ask(rule.duration_seconds));
    const open = subjects.filter((s) => this.ctx.lifecycle.current(rule.id, s.scope.id));
    const clearSeconds = Math.max(
      LOOK_BACK_MIN_SECONDS,
      rule.clear_duration_seconds ?? rule.duration_seconds,
    );
    const clearWindow =
      open.length === 0
        ? new Map<string, never>()
        : clearSeconds === rule.duration_seconds
          ? raiseWindow
          : byKey(await ask(clearSeconds));
    const operator = rule.operator ?? '>=';
    const threshold = rule.threshold ?? 0;
    for (const s of subjects) {
      const key = `${s.hostId}\0${s.name}`;
      const row = this.ctx.lifecycle.current(rule.id, s.scope.id);
      if (row !== undefined) {
        const w = clearWindow.get(key);
        if (w === undefined) continue;
        if (!breaches(w.mean, operator, rule.clear_threshold ?? threshold)) {
          this.ctx.lifecycle
            .resolve(row.id, 'Condition cleared', { rule })
            .catch(logFailure(this.ctx, 'look-back resolve'));
        } else touches.push({ row, value: w.mean, message: this.describe(rule, w.mean) });
        continue;
      }
      const w = raiseWindow.get(key);
      if (w === undefined || !breaches(w.mean, operator, threshold)) continue;
      const from = to - rule.duration_seconds;
      const since = (this.notBefore.get(scopeKey(rule.id, s.scope.id)) ?? 0) / 1000;
      // Not watched for the whole window (new subject, history younger than the rule's window).
      if (w.first > from + COVER_SLACK_S || since > from) continue;
      this.ctx.lifecycle
        .raise(
          {
            rule,
            scope: s.scope,
            value: w.mean,
            message: this.describe(rule, w.mean),
            context: { current_value: w.mean, threshold: rule.threshold },
          },
          'ongoing',
        )
        .catch(logFailure(this.ctx, 'look-back raise'));
    }
  }

  /** Hosts the rule watches (online), or their running containers the rule watches now. */
  private subjects(rule: StoredRule): Subject[] {
    const { fleet } = this.ctx;
    if (rule.scope === 'host')
      return this.hostIds()
        .filter((id) => fleet.host(id)?.status !== 'offline')
        .filter((id) => hostRules(this.ctx, rule.kind, id).some((r) => r.id === rule.id))
        .map((id) => ({ scope: hostScope(this.ctx, id), hostId: id, name: '' }));
    const out: Subject[] = [];
    for (const snap of fleet.containers()) {
      if (snap.state !== 'running') continue;
      const c = this.ctx.container(snap.hostId, snap.name);
      if (c === undefined) continue;
      if (!containerRules(this.ctx, rule.kind, c).some((r) => r.id === rule.id)) continue;
      out.push({
        scope: containerScope(this.ctx, c.host_id, c.name, c.id),
        hostId: c.host_id,
        name: c.name,
      });
    }
    return out;
  }

  private describe(rule: StoredRule, mean: number): string {
    const cond = `(threshold ${rule.operator ?? '>='} ${pct(rule.threshold ?? 0)})`;
    return `${WHAT[rule.kind] ?? rule.kind} averaged ${pct(mean)} over the last ${span(rule.duration_seconds)} ${cond}`;
  }
}
