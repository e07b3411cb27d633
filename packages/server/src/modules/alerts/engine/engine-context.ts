import type { FastifyBaseLogger } from 'fastify';
import { containerScopeId } from '@berth/contracts';
import type { Fleet } from '../../monitor/index.js';
import type { AlertRow } from '../alerts.store.js';
import type { StoredRule } from '../rules.store.js';
import type { AlertLifecycle, AlertScopeRef } from './alert-lifecycle.js';
import type { WatchedContainer } from './watched-container.js';
import { matchesContainer, matchesHost, type ContainerFacts, type HostFacts } from './selectors.js';

/** What every part of the engine shares: the fleet, the rules, the hosts, the clock. */
export interface EngineContext {
  fleet: Fleet;
  lifecycle: AlertLifecycle;
  log: FastifyBaseLogger;
  now: () => number;
  /** Enabled rules of a kind. */
  rulesOf(kind: StoredRule['kind']): StoredRule[];
  rule(id: string): StoredRule | undefined;
  host(hostId: string): HostFacts | undefined;
  /** Whether the container is being updated (its alerts wait when the rule asks). */
  updating(hostId: string, name: string): boolean;
  /** The container by host and name, as the monitor last saw it, with the user's settings. */
  container(hostId: string, name: string): WatchedContainer | undefined;
}

export const hostScope = (ctx: EngineContext, hostId: string): AlertScopeRef => ({
  type: 'host',
  id: hostId,
  hostId,
  hostName: ctx.host(hostId)?.name ?? ctx.fleet.host(hostId)?.name ?? null,
  containerName: null,
});

export const containerScope = (
  ctx: EngineContext,
  hostId: string,
  name: string,
  containerId: string | null = null,
): AlertScopeRef => ({
  type: 'container',
  id: containerScopeId(hostId, name),
  hostId,
  hostName: ctx.host(hostId)?.name ?? ctx.fleet.host(hostId)?.name ?? null,
  containerName: name,
  containerId,
});

/** Enabled container rules of a kind that watch this container and may raise now. */
export function containerRules(
  ctx: EngineContext,
  kind: StoredRule['kind'],
  c: ContainerFacts,
): StoredRule[] {
  const host = ctx.host(c.host_id);
  return ctx
    .rulesOf(kind)
    .filter(
      (r) =>
        r.scope === 'container' &&
        matchesContainer(r, c, host) &&
        !(
          r.suppress_during_updates &&
          !kind.startsWith('update_') &&
          ctx.updating(c.host_id, c.name)
        ),
    );
}

/** Enabled host rules of a kind that watch this host. */
export const hostRules = (ctx: EngineContext, kind: StoredRule['kind'], hostId: string) =>
  ctx.rulesOf(kind).filter((r) => r.scope === 'host' && matchesHost(r, ctx.host(hostId)));

/**
 * Resolves the picked unresolved alerts because their condition is over; each alert's rule,
 * when it still exists, decides whether its channels hear the recovery (auto_resolve).
 */
export const autoResolve = (
  ctx: EngineContext,
  pick: (row: AlertRow) => boolean,
  reason: string,
): Promise<number> =>
  ctx.lifecycle.resolveWhere(pick, reason, (row) =>
    row.rule_id === null ? undefined : ctx.rule(row.rule_id),
  );

/** Logs a failed engine step instead of leaving a promise unhandled. */
export const logFailure = (ctx: EngineContext, what: string) => (err: unknown) =>
  ctx.log.warn({ err }, `alert engine: ${what} failed`);
