import type { LiveMessage, LiveMessageOf, LiveMessageType } from '@berth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { LiveClient, liveUrl, type LiveStatus } from './live-client';
import { LiveRouter } from './live-routing';

type Handler = (message: LiveMessage) => void;

/**
 * The socket's status and its message subscribers, in one object that never changes: a
 * context whose value changed with the status made React walk the whole tree below it (fifty
 * host cards) on every connect and reconnect, and every subscriber subscribe again.
 */
class LiveHub {
  status: LiveStatus = 'disconnected';
  private readonly handlers = new Set<Handler>();
  private readonly statusListeners = new Set<() => void>();
  private sparklineScreens = 0;
  private onContainerSparklinesWanted: (() => void) | null = null;

  /** The provider's router hears when a first screen shows container sparklines. */
  whenContainerSparklinesWanted(listener: () => void): () => void {
    this.onContainerSparklinesWanted = listener;
    return () => {
      this.onContainerSparklinesWanted = null;
    };
  }

  get containerSparklinesShown(): boolean {
    return this.sparklineScreens > 0;
  }

  /** Counts a screen that shows container sparklines until the returned function is called. */
  showContainerSparklines = (): (() => void) => {
    this.sparklineScreens++;
    if (this.sparklineScreens === 1) this.onContainerSparklinesWanted?.();
    return () => {
      this.sparklineScreens--;
    };
  };

  setStatus(status: LiveStatus): void {
    this.status = status;
    for (const listener of this.statusListeners) listener();
  }

  deliver(message: LiveMessage): void {
    for (const handler of this.handlers) handler(message);
  }

  subscribe = (handler: Handler): (() => void) => {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  };

  onStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };
}

const LiveContext = createContext(new LiveHub());

/** Holds the live socket while `enabled` (signed in, password changed) and shares its messages. */
export function LiveProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [hub] = useState(() => new LiveHub());

  useEffect(() => {
    if (!enabled) return undefined;
    const router = new LiveRouter(
      queryClient,
      () => client.send({ type: 'containers_resync' }),
      () => hub.containerSparklinesShown,
    );
    const stopListening = hub.whenContainerSparklinesWanted(() =>
      router.containerSparklinesWanted(),
    );
    const client = new LiveClient({
      url: () => liveUrl(),
      onStatus: (status) => hub.setStatus(status),
      onMessage: (message) => {
        router.route(message);
        hub.deliver(message);
      },
    });
    client.start();
    return () => {
      stopListening();
      client.stop();
    };
  }, [enabled, queryClient, hub]);

  return <LiveContext.Provider value={hub}>{children}</LiveContext.Provider>;
}

/**
 * For a screen that shows container sparklines: they are kept up to date only while one
 * does (the live router leaves them out otherwise, and asks for them when one appears).
 */
export function useContainerSparklinesShown(): void {
  const { showContainerSparklines } = useContext(LiveContext);
  useEffect(() => showContainerSparklines(), [showContainerSparklines]);
}

export function useLiveStatus(): LiveStatus {
  const hub = useContext(LiveContext);
  return useSyncExternalStore(hub.onStatus, () => hub.status);
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
