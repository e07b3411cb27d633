import type { LiveMessage, LiveMessageOf, LiveMessageType } from '@berth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { LiveClient, liveUrl, type LiveStatus } from './live-client';
import { LiveRouter } from './live-routing';

type Handler = (message: LiveMessage) => void;

interface LiveContextValue {
  status: LiveStatus;
  subscribe: (handler: Handler) => () => void;
}

const LiveContext = createContext<LiveContextValue>({
  status: 'disconnected',
  subscribe: () => () => undefined,
});

/** Holds the live socket while `enabled` (signed in, password changed) and shares its messages. */
export function LiveProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('disconnected');
  const handlers = useRef(new Set<Handler>());

  useEffect(() => {
    if (!enabled) return undefined;
    const router = new LiveRouter(queryClient, () => client.send({ type: 'containers_resync' }));
    const client = new LiveClient({
      url: () => liveUrl(),
      onStatus: setStatus,
      onMessage: (message) => {
        router.route(message);
        for (const handler of handlers.current) handler(message);
      },
    });
    client.start();
    return () => client.stop();
  }, [enabled, queryClient]);

  const value = useMemo<LiveContextValue>(
    () => ({
      status,
      subscribe: (handler) => {
        handlers.current.add(handler);
        return () => handlers.current.delete(handler);
      },
    }),
    [status],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext).status;
}

/** Calls `handler` for every live message of one type (batch updates, container stats, …). */
export function useLiveMessages<T extends LiveMessageType>(
  type: T,
  handler: (message: LiveMessageOf<T>) => void,
): void {
  const { subscribe } = useContext(LiveContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(
    () =>
      subscribe((message) => {
        if (message.type === type) latest.current(message as LiveMessageOf<T>);
      }),
    [subscribe, type],
  );
}
