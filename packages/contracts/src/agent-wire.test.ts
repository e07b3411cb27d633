import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGENT_STATS_MAX_CONTAINERS,
  AgentWireError,
  readAgentContainerStatsRequest,
  readAgentEnrollResponse,
  readAgentHttpProbeRequest,
  readAgentNewSecret,
} from './agent-wire.js';

const probe = {
  url: 'http://172.17.0.2:8080/health',
  method: 'GET',
  expectedStatusCodes: '200-299',
  timeoutMs: 5000,
  followRedirects: true,
  verifySsl: false,
  headers: { 'X-Token': 'abc' },
};
const target = { id: 'a'.repeat(12), fullId: 'b'.repeat(64), pid: 42 };

const problemOf = (read: (b: unknown) => unknown, body: unknown) => {
  try {
    read(body);
    return null;
  } catch (error) {
    if (!(error instanceof AgentWireError)) throw error;
    return error.message;
  }
};

describe('the agent wire readers', () => {
  it('take what Berth sends as it is', () => {
    expect(readAgentHttpProbeRequest(probe)).toEqual(probe);
    expect(readAgentContainerStatsRequest({ containers: [target] })).toEqual({
      containers: [target],
    });
    expect(readAgentNewSecret({ secret: 's'.repeat(43) })).toEqual({ secret: 's'.repeat(43) });
  });

  it('name the bad field', () => {
    expect(problemOf(readAgentHttpProbeRequest, { ...probe, url: 'ftp://x' })).toBe(
      'url: Must be an http:// or https:// address',
    );
    expect(problemOf(readAgentHttpProbeRequest, { ...probe, method: 'PUT' })).toMatch(/^method:/);
    expect(problemOf(readAgentHttpProbeRequest, { ...probe, expectedStatusCodes: '99' })).toMatch(
      /^expectedStatusCodes:/,
    );
    expect(problemOf(readAgentHttpProbeRequest, { ...probe, timeoutMs: 1.5 })).toMatch(
      /^timeoutMs:/,
    );
    expect(problemOf(readAgentHttpProbeRequest, { ...probe, headers: { 'a b': 'x' } })).toBe(
      'headers.a b: Invalid header name',
    );
    expect(problemOf(readAgentHttpProbeRequest, { ...probe, headers: { a: 'x\r\ny' } })).toBe(
      'headers.a: A header value has no line breaks',
    );
    expect(problemOf(readAgentHttpProbeRequest, { ...probe, extra: 1 })).toBe(
      'body: Unknown field "extra"',
    );
    expect(
      problemOf(readAgentContainerStatsRequest, { containers: [{ ...target, id: 'xyz' }] }),
    ).toBe('containers.0.id: Must be a 12-character container id');
    expect(
      problemOf(readAgentContainerStatsRequest, {
        containers: Array.from({ length: AGENT_STATS_MAX_CONTAINERS + 1 }, () => target),
      }),
    ).toMatch(/^containers: At most/);
    expect(problemOf(readAgentNewSecret, { secret: 'short' })).toBe(
      'secret: At least 32 characters',
    );
  });

  it("let a newer Berth's extra answer fields pass", () => {
    const answer = { agent_id: 'a', host_id: 'h', secret: 's', later: true };
    expect(readAgentEnrollResponse(answer)).toEqual({ agent_id: 'a', host_id: 'h', secret: 's' });
  });

  it('refuse any other value with a field-naming error, never another exception', () => {
    for (const read of [
      readAgentHttpProbeRequest,
      readAgentContainerStatsRequest,
      readAgentNewSecret,
      readAgentEnrollResponse,
    ]) {
      fc.assert(
        fc.property(fc.anything(), (value) => {
          const problem = problemOf(read, value);
          expect(problem === null || /^[\w. -]+: /.test(problem)).toBe(true);
        }),
        { numRuns: 300 },
      );
    }
  });
});
