import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENT_PROTOCOL,
  AGENT_PROTOCOL_HEADER,
  AGENT_TOKEN_HEADER,
  agentSecretHeaderValue,
  type AgentEnrollResponse,
  type EnrollmentTokenResponse,
  type Host,
  type TestConnectionResponse,
} from '@berth/contracts';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCallError } from '../../docker/agent-tunnel.js';
import {
  buildAgent,
  exitedEarly,
  spawnAgent,
  type AgentProcess,
} from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { listenOnLoopback } from '../../test/listen.js';
import { captureLog } from '../../test/log-capture.js';
import { rigSocketPath } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';
import { AGENT_ATTEMPTS_LIMITED, DEFAULT_AGENT_LIMITS } from './agent-throttle.js';

// The bad input on the agent endpoints: a flood of failed attempts from one address,
// frames that are too large or not HTTP/2 at all, a request for a path the agent does not
// know. Each is refused and logged; a real agent of the same Berth stays connected and its
// engine keeps answering throughout. (Berth's side of an unknown agent path, a 404 answered
// as an AgentCallError, is unit-tested in docker/agent-request.test.ts.)
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let base: string;
let log: Record<string, unknown>[];
let agent: AgentProcess;
let host: Host;
const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-bad-'));
const name = `steady-${randomUUID().slice(0, 8)}`;
/** Another loopback address than the agent's 127.0.0.1: the flood's own client address. */
const FLOODER = '127.0.0.2';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { detail?: string };
}

/** An HTTP request to Berth from `localAddress`, as fetch cannot choose its source address. */
function callFrom(
  localAddress: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const req = http.request(`${base}${path}`, {
    method: data === undefined ? 'GET' : 'POST',
    localAddress,
    headers: { ...headers, ...(data === undefined ? {} : { 'content-type': 'application/json' }) },
  });
  req.end(data);
  return once(req, 'response').then(async ([res]) => {
    if (!(res instanceof http.IncomingMessage)) throw new Error('no response');
    let text = '';
    for await (const chunk of res) text += String(chunk);
    const retryAfter = res.headers['retry-after'];
    return { status: res.statusCode ?? 0, retryAfter, body: JSON.parse(text) as Answer['body'] };
  });
}

const compatible = { [AGENT_PROTOCOL_HEADER]: String(AGENT_PROTOCOL) };
const newToken = async () =>
  (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body.token;
const enrollFrom = (address: string, token: string) =>
  callFrom(
    address,
    '/api/agents/enroll',
    { [AGENT_TOKEN_HEADER]: token },
    { name: `bad-input-${randomUUID().slice(0, 8)}`, version: '0.1.0' },
  );
const connectFrom = (address: string, secret: string) =>
  callFrom(address, '/api/agents/connect', {
    authorization: agentSecretHeaderValue(secret),
    ...compatible,
  });

/** The steady agent's host is online and its engine answers through the agent, now. */
async function steadyAgentWorks(): Promise<void> {
  const hosts = (await api.get<Host[]>('/hosts')).body;
  expect(hosts.find((h) => h.id === host.id)?.status).toBe('online');
  const test = await api.post<TestConnectionResponse>('/hosts/test-connection', {
    name: host.name,
    url: host.url,
  });
  expect(test.status).toBe(200);
  expect(test.body.success).toBe(true);
}

/** A raw WebSocket to the connect endpoint with a valid secret, open: a misbehaving agent. */
async function openRaw(secret: string): Promise<WebSocket> {
  // Berth may not have seen the last one's close yet: a 409 until it has.
  return waitFor('a raw agent connection', async () => {
    const socket = new WebSocket(`${base.replace('http://', 'ws://')}/api/agents/connect`, {
      headers: { authorization: agentSecretHeaderValue(secret), ...compatible },
      perMessageDeflate: false,
    });
    socket.on('error', () => undefined);
    const opened = await Promise.race([
      once(socket, 'open').then(() => true),
      once(socket, 'unexpected-response').then(() => false),
    ]);
    if (!opened) socket.terminate();
    return opened && socket;
  });
}

/** Waits for the raw socket to be closed by Berth, and for the log line that says why. */
async function closedAndLogged(socket: WebSocket, agentId: string): Promise<string> {
  if (socket.readyState !== WebSocket.CLOSED) await once(socket, 'close');
  const line = await waitFor('the broken connection logged', () =>
    log.findLast((l) => l.msg === 'agent connection broken' && l.agent === agentId),
  );
  expect(line).toMatchObject({ level: 40 });
  return String(line.reason);
}

beforeAll(async () => {
  buildAgent();
  t = await buildTestApp({ BERTH_LOG_LEVEL: 'info', BERTH_LOG_FORMAT: 'json' });
  log = captureLog(t.app);
  base = await listenOnLoopback(t.app);
  api = apiClient(t.app, await signedInCookie(t.app));
  agent = spawnAgent({
    BERTH_URL: base,
    BERTH_AGENT_TOKEN: await newToken(),
    BERTH_AGENT_DATA_DIR: dataDir,
    BERTH_AGENT_DOCKER_SOCKET: rigSocketPath('plain'),
    BERTH_AGENT_NAME: name,
  });
  host = await Promise.race([
    waitFor('the steady agent online', async () =>
      (await api.get<Host[]>('/hosts')).body.find((h) => h.name === name && h.status === 'online'),
    ),
    exitedEarly(agent),
  ]);
}, 180_000);

afterAll(async () => {
  agent.child.kill('SIGKILL');
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('bad input on the agent endpoints', () => {
  it('refuses an address after too many failed enrollments and connects, logged once, and no one else', async () => {
    const limit = DEFAULT_AGENT_LIMITS.perAddress;
    const badSecret = 'not-a-secret-of-any-agent';
    const badToken = 'not-an-enrollment-token';
    // One parallel burst: every attempt is counted before any is checked.
    const flood = await Promise.all(
      Array.from({ length: limit + 10 }, (_, i) =>
        i % 2 === 0 ? connectFrom(FLOODER, badSecret) : enrollFrom(FLOODER, badToken),
      ),
    );
    expect(flood.filter((a) => a.status === 401)).toHaveLength(limit);
    const limited = flood.filter((a) => a.status === 429);
    expect(limited).toHaveLength(10);
    for (const answer of limited) {
      expect(answer.body).toEqual({ detail: AGENT_ATTEMPTS_LIMITED });
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(DEFAULT_AGENT_LIMITS.windowMs / 1000);
    }
    // Refused before any check: a good token from there is turned away and stays unused.
    const token = await newToken();
    expect((await enrollFrom(FLOODER, token)).status).toBe(429);
    expect((await connectFrom(FLOODER, badSecret)).status).toBe(429);

    // Said once for the window, with the address, never the credentials.
    const said = log.filter(
      (l) => l.msg === 'agent attempts refused: too many failures from this address',
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, address: FLOODER });
    const text = JSON.stringify(log);
    for (const value of [badSecret, badToken, token]) expect(text).not.toContain(value);

    // Another address is untouched: the same token enrolls from there, and the connected agent
    // never noticed.
    expect((await enrollFrom('127.0.0.1', token)).status).toBe(201);
    expect(log.some((l) => l.msg === 'agent disconnected')).toBe(false);
    await steadyAgentWorks();
  });

  it('cuts a connection that sends what is not HTTP/2, an oversized or a malformed frame, and only it', async () => {
    const enrolled = await enrollFrom('127.0.0.1', await newToken());
    expect(enrolled.status).toBe(201);
    const { agent_id, secret } = enrolled.body as unknown as AgentEnrollResponse;

    const garbage = await openRaw(secret);
    garbage.send(Buffer.from('GET / HTTP/1.1\r\nthis is not an HTTP/2 server preface\r\n\r\n'));
    expect(await closedAndLogged(garbage, agent_id)).toBe('Protocol error');
    await steadyAgentWorks();

    const oversized = await openRaw(secret);
    oversized.send(Buffer.alloc(4 * 1024 * 1024 + 1));
    expect(await closedAndLogged(oversized, agent_id)).toMatch(/payload/i);
    await steadyAgentWorks();

    // A frame with an opcode WebSocket does not define, written under the ws library.
    const malformed = await openRaw(secret);
    const raw = (malformed as unknown as { _socket: NodeJS.WritableStream })._socket;
    raw.write(Buffer.from([0x83, 0x80, 0, 0, 0, 0]));
    expect(await closedAndLogged(malformed, agent_id)).toMatch(/opcode/i);

    expect(JSON.stringify(log)).not.toContain(secret);
    expect(log.some((l) => l.msg === 'agent disconnected' && l.agent !== agent_id)).toBe(false);
    await steadyAgentWorks();
  });

  it('answers 404 to a request for a path the agent does not know, and keeps serving', async () => {
    const agentId = host.url.replace('agent://', '');
    const unknown = t.app.services.agentTunnels.request(agentId, {
      method: 'GET',
      path: '/v1/no-such-path',
      timeoutMs: 10_000,
    });
    await expect(unknown).rejects.toBeInstanceOf(AgentCallError);
    await expect(unknown).rejects.toMatchObject({ status: 404 });
    await steadyAgentWorks();
  });
  it('reports an agent that stops as disconnected, not broken', async () => {
    const agentId = host.url.replace('agent://', '');
    agent.child.kill('SIGTERM');
    await waitFor('the stopped agent logged', () =>
      log.some((l) => l.msg === 'agent disconnected' && l.agent === agentId),
    );
    expect(log.some((l) => l.msg === 'agent connection broken' && l.agent === agentId)).toBe(false);
  });
});
