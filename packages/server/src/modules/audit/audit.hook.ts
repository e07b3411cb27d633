import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  auditAction,
  auditTarget,
  createdTarget,
  namedTarget,
  type AuditTarget,
} from './audit-actions.js';
import type { AuditService } from './audit.service.js';

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SIGN_IN = '/api/v2/auth/login';
const DETAIL_READ_MAX = 4096;

interface Pending extends AuditTarget {
  action: string;
  host_name: string | null;
  container_name: string | null;
  error: string | null;
}

/**
 * Audits every state-changing request under this scope (sign-in included) from one pair of
 * hooks: the target's names are read when the request arrives (a deleted host has none
 * after), the error's words (or what a creation made) as the answer leaves, and the row is
 * queued when it is done. Never the body: it can hold passwords and secrets; a sign-in keeps
 * only its username.
 */
export function auditRequests(app: FastifyInstance, audit: AuditService): void {
  const names = audit.names;
  const pending = new WeakMap<FastifyRequest, Pending>();
  const targetOf = (request: FastifyRequest): Pending => {
    const found = pending.get(request);
    if (found !== undefined) return found;
    const params = paramsOf(request);
    const url = request.routeOptions.url;
    const target = auditTarget(url, params);
    const { host_id: hostId, container_id: containerId } = target;
    const entry: Pending = {
      action: auditAction(request.method, url, params),
      ...target,
      host_name: hostId === null ? null : (names.hostName(hostId) ?? null),
      container_name:
        hostId === null || containerId === null
          ? null
          : (names.containerName(hostId, containerId) ?? null),
      error: null,
    };
    pending.set(request, entry);
    return entry;
  };

  app.addHook('preHandler', (request, _reply, done) => {
    if (!CHANGES.has(request.method)) {
      done();
      return;
    }
    const entry = targetOf(request);
    const named = namedTarget(request.routeOptions.url, paramsOf(request));
    if (named === null || names.targetName === undefined) {
      done();
      return;
    }
    // Read before the handler runs: a deleted user still has its name in the row.
    names.targetName(named.collection, named.id).then(
      (name) => {
        if (name !== null) entry.target = name;
        done();
      },
      () => done(),
    );
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (!CHANGES.has(request.method)) {
      done(null, payload);
      return;
    }
    const entry = targetOf(request);
    if (reply.statusCode >= 400) entry.error = detailOf(payload) ?? `HTTP ${reply.statusCode}`;
    else if (request.method === 'POST' && entry.action.endsWith('.create'))
      Object.assign(entry, createdTarget(request.routeOptions.url, payload, entry));
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    if (!CHANGES.has(request.method)) {
      done();
      return;
    }
    const { action, ...target } = targetOf(request);
    const signIn = request.routeOptions.url === SIGN_IN;
    const principal = request.auth;
    const agent = request.headers['user-agent'];
    audit.record({
      source: 'api',
      actor: signIn ? attemptedUsername(request.body) : (principal?.user.username ?? null),
      api_key: principal?.key?.name ?? null,
      action,
      ...target,
      address: request.ip,
      user_agent: typeof agent === 'string' ? agent : null,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime),
    });
    done();
  });
}

const paramsOf = (request: FastifyRequest): Record<string, string> =>
  (request.params ?? {}) as Record<string, string>;

function attemptedUsername(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const username = (body as { username?: unknown }).username;
  return typeof username === 'string' ? username.slice(0, 100) : null;
}

/** The `detail` of an error answer (`{"detail": ...}`), when it is short text. */
function detailOf(payload: unknown): string | null {
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
  if (typeof text !== 'string' || text.length > DETAIL_READ_MAX) return null;
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    return typeof detail === 'string'
      ? detail
      : detail === undefined
        ? null
        : JSON.stringify(detail);
  } catch {
    return null;
  }
}
