import type { AgentEnrollResponse } from './agents.js';

/**
 * What the agent itself needs of the contracts: the names, paths and limits of its wire, and
 * checks of the requests Berth sends it, written without zod. Loading zod costs a process
 * about 20 MB of memory, a third of what the agent needs in all; Berth's own schemas stay in
 * zod (agents.ts re-exports this file, so both sides read one definition).
 */

/** Headers an agent authenticates with: never a URL, which proxies and logs keep. */
export const AGENT_TOKEN_HEADER = 'x-berth-enrollment-token';
export const AGENT_SECRET_HEADER = 'authorization';
export const agentSecretHeaderValue = (secret: string) => `Bearer ${secret}`;

/** Where an agent enrolls and where it connects, under Berth's own address. */
export const AGENT_ENROLL_PATH = '/api/agents/enroll';
export const AGENT_CONNECT_PATH = '/api/agents/connect';

/**
 * What an agent says of itself on every connect, in headers of its WebSocket handshake.
 * The protocol is the agent transport's version: Berth refuses an agent announcing another
 * one (426) with a message its host shows; its capabilities say what it runs next to the
 * engine beyond the Engine API tunnel, which every agent carries.
 */
export const AGENT_VERSION_HEADER = 'x-berth-agent-version';
export const AGENT_PROTOCOL_HEADER = 'x-berth-agent-protocol';
export const AGENT_CAPABILITIES_HEADER = 'x-berth-agent-capabilities';
export const AGENT_PROTOCOL = 1;

export const AGENT_CAPABILITIES = [
  /** Runs HTTP health checks from the host's network (container IPs are reachable there). */
  'http-probe',
  /** Reads container stats from the host's cgroup files. */
  'container-stats',
  /** Reads host CPU, memory and disk from the host's /proc and data filesystem. */
  'host-metrics',
  /** Forwards only reads to its engine; every action answers 403. */
  'read-only',
  /** Reads a compose file a container's compose label names on this host. */
  'compose-file',
] as const;
export type AgentCapability = (typeof AGENT_CAPABILITIES)[number];

/**
 * Requests Berth sends to the agent itself (not its engine) on the same HTTP/2 session:
 * JSON in, JSON out, `{"detail": …}` on failure. Each call's shapes sit beside its path.
 */
export const AGENT_API_PATHS = {
  /** POST: the agent stores a new secret; Berth swaps the hash once it answered. */
  secret: '/v1/secret',
  /** POST: one HTTP health check, run from the host's network. */
  httpProbe: '/v1/http-probe',
  /** GET: host CPU, memory and disk from the host's /proc and data filesystem. */
  hostMetrics: '/v1/host-metrics',
  /** POST: stats of the given containers from the host's cgroup files. */
  containerStats: '/v1/container-stats',
  /** POST: a compose file named by a compose label of a container on this host. */
  composeFile: '/v1/compose-file',
} as const;

/** Largest JSON body either side of an agent request accepts. */
export const AGENT_API_MAX_BODY_BYTES = 1024 * 1024;
/** A check's own headers (at most 20) plus its authorization, with room to spare. */
export const AGENT_PROBE_MAX_HEADERS = 32;
/** Containers one container-stats request may name: a full host at the 2 s cadence. */
export const AGENT_STATS_MAX_CONTAINERS = 2000;

/** A request that does not have its shape: the message names the field ("url: …"). */
export class AgentWireError extends Error {
  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = 'AgentWireError';
  }
}

const STATUS_PART = /^(\d{3})(?:-(\d{3}))?$/;

/** '200', '200-299' or '200,201,204' (parts may mix); every code 100-599. Null when invalid. */
export function parseStatusCodes(spec: string): [number, number][] | null {
  const parts = spec.replace(/\s+/g, '').split(',');
  if (parts.length === 0 || parts.length > 50) return null;
  const ranges: [number, number][] = [];
  for (const part of parts) {
    const m = STATUS_PART.exec(part);
    if (m === null) return null;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (lo < 100 || hi > 599 || lo > hi) return null;
    ranges.push([lo, hi]);
  }
  return ranges;
}

type Json = Record<string, unknown>;

/** The object at `field`; `strict`: no other keys (requests), else extra keys pass (answers). */
function objectWith(value: unknown, field: string, keys: readonly string[], strict = true): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AgentWireError(field, 'Expected an object');
  }
  const extra = strict ? Object.keys(value).find((k) => !keys.includes(k)) : undefined;
  if (extra !== undefined) throw new AgentWireError(field, `Unknown field "${extra}"`);
  return value as Json;
}

function stringOf(o: Json, key: string, max: number, field = key): string {
  const v = o[key];
  if (typeof v !== 'string') throw new AgentWireError(field, 'Expected a string');
  if (v.length > max) throw new AgentWireError(field, `At most ${max} characters`);
  return v;
}

/** `stringOf`, and the string must match `pattern`, else `problem` names its field. */
function matchOf(
  o: Json,
  key: string,
  max: number,
  pattern: RegExp,
  problem: string,
  field = key,
): string {
  const v = stringOf(o, key, max, field);
  if (!pattern.test(v)) throw new AgentWireError(field, problem);
  return v;
}

function intOf(o: Json, key: string, min: number, max: number, field = key): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new AgentWireError(field, 'Expected an integer');
  }
  if (v < min || v > max) throw new AgentWireError(field, `Must be ${min} to ${max}`);
  return v;
}

function boolOf(o: Json, key: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new AgentWireError(key, 'Expected a boolean');
  return v;
}

/** POST /v1/secret: the agent's new secret, which it stores before it answers. */
export interface AgentNewSecret {
  secret: string;
}

export function readAgentNewSecret(body: unknown): AgentNewSecret {
  const o = objectWith(body, 'body', ['secret']);
  const secret = stringOf(o, 'secret', 200);
  if (secret.length < 32) throw new AgentWireError('secret', 'At least 32 characters');
  return { secret };
}

export const HEALTH_CHECK_METHODS = ['GET', 'POST', 'HEAD'] as const;
export type HealthCheckMethod = (typeof HEALTH_CHECK_METHODS)[number];

/**
 * One HTTP health check the agent runs from its host's network (`POST /v1/http-probe`): the
 * request Berth's own probe takes, `{container_ip}` already resolved. The agent's timeout is
 * the check's; Berth waits a little longer for the answer.
 */
export interface AgentHttpProbeRequest {
  url: string;
  method: HealthCheckMethod;
  expectedStatusCodes: string;
  timeoutMs: number;
  followRedirects: boolean;
  verifySsl: boolean;
  headers: Record<string, string>;
}

const PROBE_KEYS = [
  'url',
  'method',
  'expectedStatusCodes',
  'timeoutMs',
  'followRedirects',
  'verifySsl',
  'headers',
] as const;
const PROBE_HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export function readAgentHttpProbeRequest(body: unknown): AgentHttpProbeRequest {
  const o = objectWith(body, 'body', PROBE_KEYS);
  const url = stringOf(o, 'url', 2048);
  // The scheme and no spaces; the probe's own URL parse reports the rest as a failed check.
  if (!/^https?:\/\/[^\s/?#]\S*$/i.test(url)) {
    throw new AgentWireError('url', 'Must be an http:// or https:// address');
  }
  const method = o.method;
  if (!HEALTH_CHECK_METHODS.some((m) => m === method)) {
    throw new AgentWireError('method', 'Method must be GET, POST or HEAD');
  }
  const expectedStatusCodes = stringOf(o, 'expectedStatusCodes', 200).trim();
  if (parseStatusCodes(expectedStatusCodes) === null) {
    throw new AgentWireError('expectedStatusCodes', "Use '200', '200-299' or '200,201,204'");
  }
  return {
    url,
    method: method as HealthCheckMethod,
    expectedStatusCodes,
    timeoutMs: intOf(o, 'timeoutMs', 100, 120_000),
    followRedirects: boolOf(o, 'followRedirects'),
    verifySsl: boolOf(o, 'verifySsl'),
    headers: probeHeaders(o.headers),
  };
}

function probeHeaders(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AgentWireError('headers', 'Expected an object');
  }
  const entries = Object.entries(value);
  if (entries.length > AGENT_PROBE_MAX_HEADERS) {
    throw new AgentWireError('headers', `At most ${AGENT_PROBE_MAX_HEADERS} headers`);
  }
  const headers: Record<string, string> = {};
  for (const [name, v] of entries) {
    const field = `headers.${name}`;
    if (!PROBE_HEADER_NAME.test(name)) throw new AgentWireError(field, 'Invalid header name');
    if (typeof v !== 'string') throw new AgentWireError(field, 'Expected a string');
    if (v.length > 4000) {
      throw new AgentWireError(field, 'A header value is at most 4000 characters');
    }
    if (/[\r\n\0]/.test(v)) throw new AgentWireError(field, 'A header value has no line breaks');
    headers[name] = v;
  }
  return headers;
}

/** One container whose cgroup files the agent reads: short id, full id and init PID. */
export interface AgentStatsTarget {
  id: string;
  fullId: string;
  pid: number;
}

/**
 * `POST /v1/container-stats`: the running containers whose cgroup files the agent reads,
 * by short id, full id and init PID (from the engine's inspect, which Berth already holds).
 */
export interface AgentContainerStatsRequest {
  containers: AgentStatsTarget[];
}

export function readAgentContainerStatsRequest(body: unknown): AgentContainerStatsRequest {
  const o = objectWith(body, 'body', ['containers']);
  const list = o.containers;
  if (!Array.isArray(list)) throw new AgentWireError('containers', 'Expected an array');
  if (list.length > AGENT_STATS_MAX_CONTAINERS) {
    throw new AgentWireError('containers', `At most ${AGENT_STATS_MAX_CONTAINERS} containers`);
  }
  return {
    containers: list.map((item: unknown, i): AgentStatsTarget => {
      const field = `containers.${i}`;
      const c = objectWith(item, field, ['id', 'fullId', 'pid']);
      const id = matchOf(
        c,
        'id',
        12,
        /^[0-9a-f]{12}$/,
        'Must be a 12-character container id',
        `${field}.id`,
      );
      const fullId = matchOf(
        c,
        'fullId',
        64,
        /^[0-9a-f]{64}$/,
        'Must be a 64-character container id',
        `${field}.fullId`,
      );
      return { id, fullId, pid: intOf(c, 'pid', 0, Number.MAX_SAFE_INTEGER, `${field}.pid`) };
    }),
  };
}

/** The labels `docker compose` puts on every container it makes, which Berth groups by. */
export const COMPOSE_LABELS = {
  project: 'com.docker.compose.project',
  workingDir: 'com.docker.compose.project.working_dir',
  configFiles: 'com.docker.compose.project.config_files',
  service: 'com.docker.compose.service',
  dependsOn: 'com.docker.compose.depends_on',
} as const;

/** Largest compose file Berth (or an agent) reads and shows. */
export const COMPOSE_FILE_MAX_BYTES = 256 * 1024;
/** Files of one project's config_files label that Berth reads. */
export const COMPOSE_FILES_MAX = 8;
const COMPOSE_PROJECT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,254}$/;

/**
 * `POST /v1/compose-file`: one file of a project's config_files label. The agent reads it only
 * when a container of that project on its engine names exactly this path.
 */
export interface AgentComposeFileRequest {
  project: string;
  path: string;
}

export function readAgentComposeFileRequest(body: unknown): AgentComposeFileRequest {
  const o = objectWith(body, 'body', ['project', 'path']);
  const project = matchOf(o, 'project', 255, COMPOSE_PROJECT_NAME, 'Not a compose project name');
  const path = stringOf(o, 'path', 4096);
  if (!path.startsWith('/')) throw new AgentWireError('path', 'Must be an absolute path');
  return { project, path };
}

/** Berth's answer to an enroll (its schema is Berth's route's, in agents.ts), read by the agent. */
export function readAgentEnrollResponse(body: unknown): AgentEnrollResponse {
  // A newer Berth may answer more: what this agent does not know it ignores.
  const o = objectWith(body, 'body', ['agent_id', 'host_id', 'secret'], false);
  return {
    agent_id: stringOf(o, 'agent_id', 200),
    host_id: stringOf(o, 'host_id', 200),
    secret: stringOf(o, 'secret', 200),
  };
}
