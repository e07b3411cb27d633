import type { Host } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { connectionLabel } from './connection';

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
