import type { LiveMessage } from '@berth/contracts';
import { useEffect, useRef } from 'react';

/**
 * A stand-in for the live provider in component tests: `vi.mock('@/lib/live/live-provider',
 * () => import('@/test/fake-live'))`, then `deliver` a message to every subscribed component.
 */
const handlers = new Set<(message: LiveMessage) => void>();

export function useLiveMessages(type: string, handler: (message: never) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const h = (m: LiveMessage) => {
      if (m.type === type) latest.current(m as never);
    };
    handlers.add(h);
    return () => void handlers.delete(h);
  }, [type]);
}

export function deliver(message: LiveMessage): void {
  handlers.forEach((h) => h(message));
}
