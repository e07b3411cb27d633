import { containerSchema, errorBodySchema, imagePullLineSchema } from '@berth/contracts';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { builtSchema, jsonSchemaOf } from './built-schema.js';
import { permissionOf, scopeNeeded, type Permission } from '../auth/index.js';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type RouteSchema = FastifySchema & { hide?: boolean; response?: Record<string, unknown> };
type JsonSchema = Record<string, unknown>;

/**
 * Answers that routes send without Fastify serializing them through a schema, for speed: the
 * document still shows the contract's shape. A route missing here and from its own schema has
 * no 2xx schema, which the api-docs test refuses.
 */
const RESPONSES_IN_DOCS_ONLY: Record<string, () => Record<string, unknown>> = {
  // Written JSON, shared for a second (containers.routes.ts).
  'GET /api/containers': () => ({ 200: z.array(containerSchema) }),
  // Streamed CSV and Prometheus' text format: not JSON.
  'GET /api/audit/export.csv': () => ({ 200: textAnswer('text/csv') }),
  'GET /metrics': () => ({ 200: textAnswer('text/plain') }),
  // A pull's progress, one JSON line each as it comes (images.routes.ts).
  'POST /api/hosts/:hostId/images/pull': () => ({
    200: { content: { 'application/x-ndjson': { schema: imagePullLineSchema } } },
  }),
  // Single sign-on's landing page, which moves on to the app (its 302 is below).
  'GET /api/v2/auth/sso/callback': () => ({ 200: textAnswer('text/html') }),
  // This document itself.
  'GET /api/openapi.json': () => ({
    200: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
  }),
};

function textAnswer(contentType: string) {
  return { content: { [contentType]: { schema: z.string() } } };
}

/** Error answers of routes that the generic rules below do not foresee. */
const MORE_ERRORS: Record<string, readonly ErrorStatus[]> = {
  // Not found while the export is off.
  'GET /metrics': [404],
  // A selected container on a host out of the caller's host scope, named by its place.
  'POST /api/batch': [404],
};

/** Each error status a route can answer, and when it does. */
const ERROR_ANSWERS = {
  400: 'Bad input: `detail` names the field ("name: must not be empty")',
  401: 'Not signed in, or an unknown, revoked or expired API key',
  403: "Refused: the user's role or the API key's scope does not reach this route, the password must be changed first, or the request came from another origin",
  404: 'What the path names does not exist',
  409: 'The change conflicts with the current state (a name in use, an action already under way)',
  429: 'Too many failed attempts (sign-ins, API keys, agent enrollments) from this address; Retry-After says when to try again',
} as const;
type ErrorStatus = keyof typeof ERROR_ANSWERS;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WEBSOCKET_UPGRADES = new Set(['GET /api/agents/connect']);
/** Routes a browser is sent to, that answer by sending it on. */
const REDIRECTS: Record<string, string> = {
  'GET /api/v2/auth/sso/start': "Found: to the provider's sign-in, or to /login with the reason",
  'GET /api/v2/auth/sso/callback': 'Found: refused, to /login, which shows the reason',
};

/** The error statuses a route may answer, from its method, permission, path and input. */
export function errorStatuses(
  name: string,
  schema: RouteSchema,
  permission: Permission,
): ErrorStatus[] {
  const [method = 'GET', url = ''] = name.split(' ');
  const changes = STATE_CHANGING.has(method);
  // Public routes that take credentials check their own (the sign-in, an agent's token).
  const checksCredentials = permission !== 'public' || changes || WEBSOCKET_UPGRADES.has(name);
  const statuses: ErrorStatus[] = [];
  if (changes || schema.querystring !== undefined || schema.params !== undefined)
    statuses.push(400);
  if (checksCredentials) statuses.push(401);
  // A key's scope, the first sign-in's password change, or a session's request from elsewhere.
  if (permission !== 'public' || changes) statuses.push(403);
  if (url.includes('/:')) statuses.push(404);
  if (changes) statuses.push(409);
  if (checksCredentials) statuses.push(429);
  return [...new Set([...statuses, ...(MORE_ERRORS[name] ?? [])])].sort();
}

const WHO: Record<Permission, string> = {
  public: 'Anyone: no sign-in.',
  read: 'A signed-in user, or an API key of any scope.',
  operate: 'A signed-in user, or an API key of scope `operate` or `admin`.',
  admin: 'A signed-in user, or an API key of scope `admin`.',
  account: 'A signed-in session only: API keys cannot call it.',
};

let errorJson: JsonSchema | undefined;
/** `{"detail": string}`, built once. */
const errorBodyJson = (): JsonSchema => (errorJson ??= jsonSchemaOf(errorBodySchema));

/** Segments that name a part of a larger area: grouped with it in the reference. */
const TAG_OF_SEGMENT: Record<string, string> = {
  user: 'settings',
  'upgrade-notice': 'settings',
  tags: 'containers',
  'auto-update-configs': 'updates',
  'update-policies': 'updates',
  'registry-credentials': 'updates',
  'health-check-configs': 'health-checks',
  'openapi.json': 'docs',
};

/**
 * The tag of a route, which the reference groups operations by: its first segment
 * (`/v2/auth/login` → auth), a host's containers and events under theirs, health checks
 * under theirs.
 */
export function tagOf(url: string): string {
  if (!url.startsWith('/api/')) return 'metrics';
  if (url.includes('/http-health-check')) return 'health-checks';
  const nested = /^\/api\/hosts\/:[^/]+\/(containers|events)(\/|$)/.exec(url);
  if (nested?.[1] !== undefined) return nested[1];
  const first = url.split('/').find((s, i) => i > 1 && s !== '' && s !== 'v2') ?? 'api';
  return TAG_OF_SEGMENT[first] ?? first;
}

/**
 * @fastify/swagger's transform for each route: the zod type provider's conversion of its
 * schemas, plus what Berth states of every route from one place: its permission and the
 * security that grants it, its error answers, and its tag. The web app, the live channel and
 * the docs page itself are left out.
 */
export function documentRoute(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const { url, route } = input;
  // Undefined for a route without a schema, whatever the type says.
  const schema = { ...input.schema } as RouteSchema;
  // Outside /api, only routes that declare a permission (/metrics) are the API's.
  const isApi = url.startsWith('/api/') || route.config?.permission !== undefined;
  if (!isApi || schema.hide === true) return { schema: { hide: true }, url };
  const [method = 'GET'] = [route.method].flat();
  const name = `${method} ${url}`;
  const response = schema.response ?? RESPONSES_IN_DOCS_ONLY[name]?.();
  const converted = jsonSchemaTransform({
    ...input,
    schema: {
      ...schema,
      ...mapSchemas({ body: schema.body, querystring: schema.querystring, params: schema.params }),
      ...(response === undefined ? {} : { response: mapSchemas(response) }),
    },
  });
  const out = converted.schema as RouteSchema & Record<string, unknown>;
  const responses: Record<string, unknown> = { ...out.response };
  for (const [status, json] of Object.entries(responses)) {
    responses[status] = { 'x-response-description': describeStatus(status), ...(json as object) };
  }
  if (WEBSOCKET_UPGRADES.has(name)) {
    responses['101'] = {
      type: 'null',
      description: 'Switching Protocols: the connection becomes a WebSocket',
    };
  }
  const redirect = REDIRECTS[name];
  if (redirect !== undefined) responses['302'] = { type: 'null', description: redirect };
  const permission = route.config?.permission ?? permissionOf(method, url);
  for (const status of errorStatuses(name, schema, permission)) {
    responses[status] ??= { 'x-response-description': ERROR_ANSWERS[status], ...errorBodyJson() };
  }
  const scope = scopeNeeded(permission);
  const documented: Record<string, unknown> = {
    ...out,
    response: responses,
    tags: [tagOf(url)],
    description: `**Permission: ${permission}.** ${WHO[permission]}${
      scope === null || permission === 'public' ? '' : ` API key scope needed: \`${scope}\`.`
    }`,
    'x-berth-permission': permission,
    ...(permission === 'public' ? { security: [] } : {}),
    ...(permission === 'account' ? { security: [{ session: [] }] } : {}),
  };
  return { url, schema: documented };
}

/** Each zod schema of a record without the contracts' proxies; other values as they are. */
function mapSchemas(schemas: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schemas)) {
    if (value !== undefined) out[key] = value instanceof z.ZodType ? builtSchema(value) : value;
  }
  return out;
}

const describeStatus = (status: string): string =>
  status === '201' ? 'Created' : status.startsWith('2') ? 'OK' : 'Answer';
