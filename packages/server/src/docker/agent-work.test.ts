import type { AgentCapability } from '@berth/contracts';
import { expect, it } from 'vitest';
import type { AgentCall, AgentTunnel } from './agent-tunnel.js';
import { AgentTunnels } from './agent-tunnels.js';
import { AgentWork } from './agent-work.js';

/** A tunnel that answers every request with `answer` (or its failure) and records the calls. */
function fakeTunnel(capabilities: AgentCapability[], answer: () => Promise<unknown>) {
  const calls: AgentCall[] = [];
  const tunnel: AgentTunnel = {
    dial: () => {
      throw new Error('no engine here');
    },
    request: (call) => {
      calls.push(call);
      return answer();
    },
    closed: new Promise(() => undefined),
    close: () => undefined,
    capabilities,
  };
  return { tunnel, calls };
}

const req = {
  url: 'http://10.0.0.2:8080/health',
  method: 'GET' as const,
  expectedStatusCodes: '200',
  timeoutMs: 7000,
  followRedirects: true,
  verifySsl: true,
  headers: {},
};

it('sends work only to a connected agent that announced it; Berth keeps the rest', () => {
  const tunnels = new AgentTunnels();
  const work = new AgentWork(tunnels);
  tunnels.attach(
    'new',
    fakeTunnel(['http-probe', 'host-metrics'], () => Promise.resolve(null)).tunnel,
  );
  tunnels.attach('old', fakeTunnel([], () => Promise.resolve(null)).tunnel);
  expect(work.agentFor('agent://new', 'http-probe')).toBe('new');
  expect(work.agentFor('agent://new', 'container-stats')).toBeNull();
  expect(work.agentFor('agent://old', 'http-probe')).toBeNull(); // an older agent: Berth probes
  expect(work.agentFor('agent://gone', 'http-probe')).toBeNull(); // not connected
  expect(work.agentFor('tcp://10.0.0.1:2375', 'http-probe')).toBeNull();
  expect(work.agentFor(undefined, 'http-probe')).toBeNull();
});

it("waits the check's timeout and a margin, and makes a failed call a failed check in words", async () => {
  const tunnels = new AgentTunnels();
  const work = new AgentWork(tunnels);
  const result = {
    healthy: true,
    message: 'Received status 200 (matches expected)',
    statusCode: 200,
    responseTimeMs: 3,
  };
  const ok = fakeTunnel(['http-probe'], () => Promise.resolve(result));
  tunnels.attach('a', ok.tunnel);
  expect(await work.httpProbe('a', req)).toEqual(result);
  expect(ok.calls[0]).toMatchObject({
    method: 'POST',
    path: '/v1/http-probe',
    body: req,
    timeoutMs: 12_000,
  });

  tunnels.attach('b', fakeTunnel(['http-probe'], () => Promise.resolve({ healthy: 'yes' })).tunnel);
  expect(await work.httpProbe('b', req)).toEqual({
    healthy: false,
    message: 'The agent could not run the check: The agent answered in an unexpected shape',
    statusCode: null,
    responseTimeMs: null,
  });
  expect((await work.httpProbe('nobody', req)).message).toBe(
    'The agent could not run the check: The agent is not connected',
  );
});
