import type { Host } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { capabilitiesText, connectionLabel } from './connection';

const agent = (version: string): Host['connection'] => ({
  type: 'agent',
  agent: { version, capabilities: [], connected: true, last_connected_at: null, insecure: false },
});

describe('connectionLabel', () => {
  it('names each way Berth reaches a host, an agent with its version', () => {
    expect(connectionLabel({ connection: { type: 'socket', agent: null } })).toBe('Socket');
    expect(connectionLabel({ connection: { type: 'tcp', agent: null } })).toBe('TCP');
    expect(connectionLabel({ connection: { type: 'tls', agent: null } })).toBe('TLS');
    expect(connectionLabel({ connection: agent('0.1.0') })).toBe('Agent 0.1.0');
    // An agent that never said its version (one from before the header) is just an agent.
    expect(connectionLabel({ connection: agent('unknown') })).toBe('Agent');
    expect(connectionLabel({ connection: { type: 'agent', agent: null } })).toBe('Agent');
  });
});

describe('capabilitiesText', () => {
  it('says what an agent runs next to its engine, in words', () => {
    expect(
      capabilitiesText({
        capabilities: [
          'read-only',
          'compose-file',
          'http-probe',
          'host-metrics',
          'container-stats',
        ],
      }),
    ).toBe('HTTP probes, container stats, host metrics, compose files, read-only');
    expect(capabilitiesText({ capabilities: ['read-only'] })).toBe('Read-only');
    // A newer agent's capability this page does not know is named as the agent said it.
    expect(capabilitiesText({ capabilities: ['teleport', 'host-metrics'] })).toBe(
      'Host metrics, teleport',
    );
    expect(capabilitiesText({ capabilities: [] })).toBe('None (Engine API only)');
  });
});
