import { parseContainerKey } from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound, unauthorized } from '../../platform/http-errors.js';
import { sessionOf } from './auth.guard.js';
import { hostScopeOf, scopeReaches, type HostScope } from './host-scope.js';

/** What the scope check needs of the hosts module's tag index. */
export interface HostTagLookup {
  tagsOf(hostId: string): readonly string[];
  hostIds(): string[];
}

/** The hosts one request's caller reaches, decided once per request from the user row. */
export interface HostReach {
  /** null: every host (admins, and users without host tags). */
  readonly scope: HostScope;
  readonly reaches: (hostId: string) => boolean;
  /** The registered hosts in reach, or null for every host, removed ones' history included. */
  readonly hostIds: () => string[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every signed-in request, right after the guard. */
    hostReach: HostReach | null;
  }
}

const EVERY_HOST: HostReach = { scope: null, reaches: () => true, hostIds: () => null };

/** The caller's host scope; an API key acts within its owner's. */
export function scopeOf(request: FastifyRequest): HostScope {
  return hostScopeOf(sessionOf(request).user);
}

/** The caller's reach, for filtering lists and checking hosts named in a body or a query. */
export function reachOf(request: FastifyRequest): HostReach {
  const reach = request.hostReach ?? null;
  if (reach === null) throw unauthorized();
  return reach;
}

/** What a host out of reach answers: exactly what a missing host answers on that route. */
function missingHost(url: string, hostId: string): Error {
  return notFound(url.startsWith('/api/hosts/:id') ? `Host ${hostId} not found` : 'Host not found');
}

/** The host a route's path names: `:hostId`, `/hosts/:id`, or a composite container id. */
function hostsInPath(url: string, params: unknown): string[] {
  if (typeof params !== 'object' || params === null) return [];
  const p = params as Record<string, unknown>;
  const hosts: string[] = [];
  if (typeof p.hostId === 'string') hosts.push(p.hostId);
  if (url.startsWith('/api/hosts/:id') && typeof p.id === 'string') hosts.push(p.id);
  // `host:container` keys are accepted where a container id is (the event timeline).
  if (typeof p.containerId === 'string') {
    const key = parseContainerKey(p.containerId);
    if (key !== null) hosts.push(key.hostId);
  }
  return hosts;
}

/**
 * onRequest hook after the guard: fixes the caller's reach for the request, and answers a
 * route whose path names a host out of reach with that route's own "not found", so a scoped
 * user cannot tell a host they may not see from one that does not exist. Every route with a
 * host in its path is covered here, once, never in handlers; the route-scope test checks it.
 */
export function registerHostReach(app: FastifyInstance, tags: HostTagLookup): void {
  if (!app.hasRequestDecorator('hostReach')) app.decorateRequest('hostReach', null);
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      request.hostReach = reachFor(request, tags);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}

/** The caller's reach; throws the route's missing-host 404 for a host in its path out of it. */
function reachFor(request: FastifyRequest, tags: HostTagLookup): HostReach | null {
  if (request.auth === null) return null;
  const scope = scopeOf(request);
  if (scope === null) return EVERY_HOST;
  const reaches = (hostId: string) => scopeReaches(scope, tags.tagsOf(hostId));
  const url = request.routeOptions.url ?? '';
  for (const hostId of hostsInPath(url, request.params)) {
    if (!reaches(hostId)) throw missingHost(url, hostId);
  }
  return { scope, reaches, hostIds: () => tags.hostIds().filter(reaches) };
}

/** The entries of a map keyed by `host:container` whose host is in reach. */
export function reachableEntries<T>(reach: HostReach, byKey: Record<string, T>): Record<string, T> {
  if (reach.scope === null) return byKey;
  return Object.fromEntries(
    Object.entries(byKey).filter(([key]) => {
      const parsed = parseContainerKey(key);
      return parsed !== null && reach.reaches(parsed.hostId);
    }),
  );
}
