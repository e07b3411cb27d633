import { request as httpRequest, type Agent, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import Docker from 'dockerode';
import { enginePort, parseEngineUrl } from '@berth/contracts';
import { GuardedHttpAgent, GuardedHttpsAgent, type EngineLimits } from './engine-agent.js';
import type { EngineDialer } from './agent-tunnel.js';

/**
 * How to reach one engine: its URL and, for mutual TLS, PEM texts (never file paths). An
 * engine no address reaches (an agent's) comes with `dial`, which opens each connection; its
 * URL then only names it in messages.
 */
export interface EngineEndpoint {
  url: string;
  tls?: { ca: string; cert: string; key: string } | null;
  dial?: EngineDialer;
}

export interface EngineClientOptions {
  /** First-byte timeout (and silence allowed inside an answer); 30 s when left out. */
  timeoutMs?: number;
  /** Connect timeout; `timeoutMs` up to 2 minutes when left out (calls may wait longer). */
  connectTimeoutMs?: number;
  /** Largest list/inspect/info/version answer. */
  maxAnswerBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_CONNECT_MS = 120_000;
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The limits a client built with `options` applies; also used by the event stream. */
export function engineLimits(options: EngineClientOptions = {}): EngineLimits {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    connectTimeoutMs: options.connectTimeoutMs ?? Math.min(timeoutMs, MAX_CONNECT_MS),
    firstByteTimeoutMs: timeoutMs,
    idleTimeoutMs: timeoutMs,
    maxAnswerBytes: options.maxAnswerBytes ?? MAX_ANSWER_BYTES,
  };
}

/** The PEM texts as request options (docker-modem and node:https take the same names). */
const tlsOptions = (tls: EngineEndpoint['tls']) =>
  tls ? { ca: tls.ca, cert: tls.cert, key: tls.key } : {};

type Target =
  | { socketPath: string }
  | { dial: EngineDialer }
  | { protocol: 'http' | 'https'; host: string; port: number; tls: EngineEndpoint['tls'] };

/** unix://, tcp:// (https when TLS material is given), http:// and https:// URLs. */
function parseEndpoint(endpoint: EngineEndpoint): Target {
  if (endpoint.dial !== undefined) return { dial: endpoint.dial };
  const address = parseEngineUrl(endpoint.url);
  if ('error' in address)
    throw new Error(`Unsupported engine address ${endpoint.url}: ${address.error}`);
  if (address.kind === 'unix') return { socketPath: address.path };
  const tls = endpoint.tls ?? null;
  return {
    protocol:
      address.scheme === 'https' || (address.scheme === 'tcp' && tls !== null) ? 'https' : 'http',
    host: address.host,
    port: enginePort(address, tls !== null),
    tls,
  };
}

/**
 * A dockerode client whose every call has a connect and a first-byte timeout, and whose
 * buffered answers (list, inspect, info, version) are capped in size while they arrive.
 * Streams (events, logs, pulls) keep the timeouts but no cap: their readers bound them.
 */
export function createEngineClient(
  endpoint: EngineEndpoint,
  options: EngineClientOptions = {},
): Docker {
  const target = parseEndpoint(endpoint);
  const limits = engineLimits(options);
  const https = 'protocol' in target && target.protocol === 'https';
  const dial = 'dial' in target ? target.dial : undefined;
  const guarded = (buffered: boolean) =>
    https ? new GuardedHttpsAgent(limits, buffered) : new GuardedHttpAgent(limits, buffered, dial);
  const docker = new Docker(modemOptions(target));
  const buffered = guarded(true);
  useAgents(docker, { buffered, stream: guarded(false) });
  clientLimits.set(docker, limits);
  clientRoutes.set(docker, routeTo(target, buffered));
  return docker;
}

const clientLimits = new WeakMap<Docker, EngineLimits>();

/** How to send a plain request to a client's engine, through its guarded buffered agent. */
export interface EngineRoute {
  request: typeof httpRequest;
  options: RequestOptions;
}
const clientRoutes = new WeakMap<Docker, EngineRoute>();

/** A dialled engine has no address; its agent's `dial` opens the connection. */
const DIALLED = { protocol: 'http', host: 'berth-agent', port: 80 } as const;

function modemOptions(target: Target): Docker.DockerOptions {
  if ('socketPath' in target) return { socketPath: target.socketPath };
  if ('dial' in target) return { ...DIALLED };
  const { protocol, host, port, tls } = target;
  return { protocol, host, port, ...tlsOptions(tls) };
}

function routeTo(target: Target, agent: Agent): EngineRoute {
  if ('socketPath' in target)
    return { request: httpRequest, options: { socketPath: target.socketPath, agent } };
  if ('dial' in target)
    return { request: httpRequest, options: { host: DIALLED.host, port: DIALLED.port, agent } };
  const { protocol, host, port, tls } = target;
  const options = {
    host,
    port,
    agent,
    ...tlsOptions(tls),
  };
  return { request: protocol === 'https' ? httpsRequest : httpRequest, options };
}

/** The route of a client made by `createEngineClient`; undefined for other clients. */
export const routeOf = (docker: Docker): EngineRoute | undefined => clientRoutes.get(docker);

/** The limits `docker` was built with (defaults for a client made elsewhere). */
export const limitsOf = (docker: Docker): EngineLimits =>
  clientLimits.get(docker) ?? engineLimits();

/**
 * docker-modem reads `agent` synchronously when a call is dialled and knows then whether
 * the answer is buffered or a stream; this client's modem picks the matching agent.
 */
function useAgents(docker: Docker, agents: { buffered: Agent; stream: Agent }): void {
  const modem = docker.modem as Docker['modem'] & { agent?: Agent };
  const dial = modem.dial.bind(modem);
  modem.dial = (options, callback) => {
    const streaming =
      options.isStream === true || options.hijack === true || options.openStdin === true;
    modem.agent = streaming ? agents.stream : agents.buffered;
    dial(options, callback);
  };
}
