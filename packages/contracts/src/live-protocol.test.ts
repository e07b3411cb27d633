import { describe, expect, it } from 'vitest';
import { LIVE_PROTOCOL_DELTAS, LIVE_PROTOCOL_SPEC, liveProtocolOf } from './live-protocol.js';

describe('liveProtocolOf', () => {
  it('is the delta protocol only when a client asks for version 2', () => {
    expect(liveProtocolOf({ protocol: '2' })).toBe(LIVE_PROTOCOL_DELTAS);
    expect(liveProtocolOf({ protocol: '2', sparklines: '0' })).toBe(LIVE_PROTOCOL_DELTAS);
  });

  it("is the spec's version for no query, an unknown version or a malformed one", () => {
    for (const query of [
      undefined,
      null,
      'protocol=2',
      {},
      { protocol: '1' },
      { protocol: '3' },
      { protocol: 'banana' },
      { protocol: ['2', '2'] },
      { protocol: 2 },
      { sparklines: '0' },
    ])
      expect(liveProtocolOf(query)).toBe(LIVE_PROTOCOL_SPEC);
  });
});
