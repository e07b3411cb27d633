import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { AgentRequestError, serveEngine, type AgentHandlers } from '@berth/agent';
import { afterEach, expect, it } from 'vitest';
import { connect } from 'node:net';
import { openAgentTunnel, type AgentTunnel } from './agent-tunnel.js';

// Both ends of an agent's session over a plain loopback TCP connection (the WebSocket's
// stream in service): Berth's requests to the agent itself, beside the engine tunnel.
let server: Server | undefined;
let tunnel: AgentTunnel | undefined;

afterEach(() => {
  tunnel?.close();
  server?.close();
});

async function pair(handlers: AgentHandlers): Promise<AgentTunnel> {
  server = createServer((socket) => serveEngine(socket, { socketPath: '/nonexistent', handlers }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await once(socket, 'connect');
  tunnel = openAgentTunnel(socket);
  return tunnel;
}

it('carries a JSON request to the agent and its answer back', async () => {
  const t = await pair(new Map([['POST /v1/echo', (body) => Promise.resolve({ echoed: body })]]));
  await expect(
    t.request({ method: 'POST', path: '/v1/echo', body: { a: 1 }, timeoutMs: 2000 }),
  ).resolves.toEqual({ echoed: { a: 1 } });
});

it("fails with the agent's words and status: unknown path, refusal, internal error", async () => {
  const t = await pair(
    new Map([
      [
        'POST /v1/refuse',
        () => Promise.reject(new AgentRequestError(400, 'url: must be http or https')),
      ],
      ['GET /v1/broken', () => Promise.reject(new Error('disk gone'))],
    ]),
  );
  await expect(
    t.request({ method: 'POST', path: '/v1/refuse', body: {}, timeoutMs: 2000 }),
  ).rejects.toMatchObject({ status: 400, message: 'url: must be http or https' });
  await expect(
    t.request({ method: 'GET', path: '/v1/broken', timeoutMs: 2000 }),
  ).rejects.toMatchObject({ status: 500, message: 'disk gone' });
  await expect(
    t.request({ method: 'GET', path: '/v1/nothing', timeoutMs: 2000 }),
  ).rejects.toMatchObject({ status: 404 });
});

it('gives up on an agent that does not answer in time', async () => {
  const t = await pair(new Map([['GET /v1/slow', () => new Promise(() => undefined)]]));
  await expect(t.request({ method: 'GET', path: '/v1/slow', timeoutMs: 200 })).rejects.toThrow(
    'The agent did not answer within 200 ms',
  );
});
