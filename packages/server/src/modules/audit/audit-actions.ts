/**
 * Readable audit actions from a route's pattern and its params, so the log reads
 * `container.restart` and `hosts.delete` rather than URL patterns:
 * - a container route (`/hosts/:hostId/containers/:containerId/...` or
 *   `/containers/:hostId/:containerId/...`) is `container.<what follows>`, `:action` by its value;
 * - a host route (`/hosts/:id/...`) is `host.<what follows>`;
 * - otherwise the fixed segments, joined by dots;
 * then the method's verb when the path ends at a record or collection (`.create`, `.update`,
 * `.delete`). A path that is no route at all keeps its method and path.
 */
export function auditAction(
  method: string,
  pattern: string | undefined,
  params: Record<string, string>,
): string {
  if (pattern === undefined) return method;
  const named = NAMED_ACTIONS[`${method} ${pattern}`];
  if (named !== undefined) return named;
  const parts = pattern
    .replace(/^\/api\//, '')
    .replace(/^v2\//, '')
    .split('/')
    .filter((p) => p !== '');
  let subject: string[];
  let rest: string[];
  if (parts[0] === 'hosts' && parts[1] === ':hostId' && parts[2] === 'containers') {
    [subject, rest] = [['container'], parts.slice(4)];
  } else if (parts[0] === 'containers' && parts[1] === ':hostId') {
    [subject, rest] = [['container'], parts.slice(3)];
  } else if (parts[0] === 'hosts' && parts[1] === ':id' && parts.length > 2) {
    [subject, rest] = [['host'], parts.slice(2)];
  } else {
    [subject, rest] = [[], parts];
  }
  const words = [
    ...subject,
    ...rest
      .map((p) => (p === ':action' ? (params.action ?? 'action') : p))
      .filter((p) => !p.startsWith(':')),
  ];
  const last = parts.at(-1) ?? '';
  const verb = verbOf(method, last, rest.length === 0);
  return [...words, ...(verb === null ? [] : [verb])].join('.') || `${method} ${pattern}`;
}

/** Routes whose pattern does not read well as an action: sessions are signed out, not deleted. */
const NAMED_ACTIONS: Record<string, string> = {
  'DELETE /api/v2/auth/sessions/:id': 'session.sign-out',
  'POST /api/v2/auth/sessions/end-others': 'session.sign-out-everywhere',
  'DELETE /api/sessions/:id': 'session.end',
  'POST /api/hosts/:hostId/volumes': 'volume.create',
  'DELETE /api/hosts/:hostId/volumes/:name': 'volume.delete',
  'POST /api/hosts/:hostId/prune/volumes': 'volume.prune',
  'POST /api/hosts/:hostId/networks': 'network.create',
  'DELETE /api/hosts/:hostId/networks/:id': 'network.delete',
  'POST /api/hosts/:hostId/prune/networks': 'network.prune',
};

/** Records the log names by what they are called rather than their id (see AuditNames). */
const NAMED_TARGETS = new Set(['users', 'sessions']);

/** The first id in the path that names a user or a session, as `{ collection, id }`. */
export function namedTarget(
  pattern: string | undefined,
  params: Record<string, unknown>,
): { collection: string; id: string } | null {
  const parts = (pattern ?? '').split('/');
  for (const [i, part] of parts.entries()) {
    const collection = parts[i - 1];
    const value = params[part.slice(1)];
    if (!part.startsWith(':') || collection === undefined || !NAMED_TARGETS.has(collection))
      continue;
    if (typeof value === 'string' || typeof value === 'number')
      return { collection, id: String(value) };
  }
  return null;
}

/** POSTs to these make a record; other POSTs to a fixed segment are actions of their own. */
const COLLECTIONS = new Set([
  'hosts',
  'rules',
  'channels',
  'registry-credentials',
  'custom',
  'api-keys',
  'batch',
  'enrollment-tokens',
  'annotations',
  'users',
]);
/** Fixed last segments that already say what a PUT or PATCH does. */
const VERBS = new Set(['toggle']);

function verbOf(method: string, last: string, atSubject: boolean): string | null {
  const onRecord = last.startsWith(':') || atSubject;
  if (method === 'DELETE') return 'delete';
  if (method === 'POST') return !onRecord && COLLECTIONS.has(last) ? 'create' : null;
  if (VERBS.has(last)) return null;
  return 'update';
}

/** What a route's params name, as columns of the audit row. */
export interface AuditTarget {
  host_id: string | null;
  container_id: string | null;
  /** Other ids the path names, e.g. `rules 4`. */
  target: string | null;
}

/** Host and container ids from the params; any other id with the segment before it. */
export function auditTarget(pattern: string | undefined, params: Record<string, string>) {
  const target: AuditTarget = { host_id: null, container_id: null, target: null };
  if (pattern === undefined) return target;
  const parts = pattern.split('/');
  const others: string[] = [];
  parts.forEach((part, i) => {
    if (!part.startsWith(':')) return;
    const name = part.slice(1);
    const value = params[name];
    if (value === undefined || name === 'action') return;
    if (name === 'hostId' || (name === 'id' && parts[i - 1] === 'hosts')) target.host_id = value;
    else if (name === 'containerId') target.container_id = value;
    else others.push(`${parts[i - 1] ?? name} ${value}`);
  });
  if (others.length > 0) target.target = others.join(', ').slice(0, 200);
  return target;
}

/** Answers past this are not read for what they created: creations answer with one record. */
export const CREATED_READ_MAX = 64 * 1024;
const CREATED_CAP = 100;

/**
 * What a creation made, from its answer's top-level `id`, `name` and `host_id` only (the
 * answer may hold a new secret, e.g. an API key's): a host made on `/hosts` fills the host
 * columns, anything else is `<collection> <id> (<name>)`, after any target the path named.
 */
export function createdTarget(
  pattern: string | undefined,
  payload: unknown,
  named: AuditTarget,
): AuditTarget & { host_name?: string } {
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
  if (typeof text !== 'string' || text.length > CREATED_READ_MAX || !text.startsWith('{'))
    return named;
  let body: { id?: unknown; name?: unknown; host_id?: unknown; user?: { username?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return named;
  }
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? String(body.id) : null;
  const name = typeof body.name === 'string' ? body.name.slice(0, CREATED_CAP) : null;
  const collection = (pattern ?? '').split('/').at(-1) ?? '';
  // A new user answers `{ user, password }`: named by its username, the password never read.
  const username = body.user?.username;
  if (collection === 'users' && typeof username === 'string')
    return { ...named, target: `user ${username.slice(0, CREATED_CAP)}` };
  if (collection === 'hosts' && id !== null)
    return {
      ...named,
      host_id: id.slice(0, CREATED_CAP),
      ...(name === null ? {} : { host_name: name }),
    };
  const hostId = typeof body.host_id === 'string' ? body.host_id.slice(0, CREATED_CAP) : null;
  const made =
    id === null && name === null
      ? null
      : [collection, id?.slice(0, CREATED_CAP), name === null ? null : `(${name})`]
          .filter((p) => p !== null && p !== undefined && p !== '')
          .join(' ');
  return {
    ...named,
    host_id: named.host_id ?? hostId,
    target: [named.target, made].filter((p) => p !== null).join(', ') || null,
  };
}
