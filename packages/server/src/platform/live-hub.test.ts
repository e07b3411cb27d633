import type { LiveMessage } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { LiveHub } from './live-hub.js';

const message: LiveMessage = {
  type: 'blackout_status_changed',
  data: { is_blackout: true, window_name: null },
};

describe('live hub taps', () => {
  it('hear every published message as it was given, and a failing one does not stop the rest', () => {
    const errors: string[] = [];
    // Only `error` is reached here; the hub's other log calls need no socket.
    const log = { error: (_obj: unknown, msg: string) => errors.push(msg) };
    const hub = new LiveHub(log as unknown as FastifyBaseLogger);
    const heard: LiveMessage[] = [];
    hub.tap(() => {
      throw new Error('listener broke');
    });
    const stop = hub.tap((m) => heard.push(m));
    hub.publish(message);
    expect(heard).toEqual([message]);
    expect(errors).toEqual(['live message listener failed']);
    stop();
    hub.publish(message);
    expect(heard).toHaveLength(1);
  });
});
