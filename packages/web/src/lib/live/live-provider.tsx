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
import { meQueryOptions } from '../session';
import { whenFirstScreenSettled } from './first-screen-settled';
import { LiveClient, liveUrl, type LiveStatus } from './live-client';
import { LiveRouter } from './live-routing';

type Handler = (message: LiveMessage) => void;

/** How long container sparklines stay on after the last screen showing them went away. */
const SPARKLINES_OFF_DELAY_MS = 5000;

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
  /** Whether the live channel carries container sparklines: see `showContainerSparklines`. */
  private sparklinesWanted = false;
  private sparklinesOffTimer: ReturnType<typeof setTimeout> | undefined;
  private onSparklinesWantedChange: ((wanted: boolean) => void) | null = null;

  /** The provider's router hears when container sparklines become wanted or unwanted. */
  whenContainerSparklinesWantedChanges(listener: (wanted: boolean) => void): () => void {
    this.onSparklinesWantedChange = listener;
    return () => {
      this.onSparklinesWantedChange = null;
    };
  }

  get containerSparklinesShown(): boolean {
    return this.sparklinesWanted;
  }

  /**
   * Counts a screen that shows container sparklines until the returned function is called.
   * The first one turns them on at once; they are turned off only when none has shown them
   * for a while, so that going from one such screen to another costs no full state.
   */
  showContainerSparklines = (): (() => void) => {
    this.sparklineScreens++;
    clearTimeout(this.sparklinesOffTimer);
    this.setSparklinesWanted(true);
    return () => {
      this.sparklineScreens--;
      if (this.sparklineScreens > 0) return;
      this.sparklinesOffTimer = setTimeout(() => {
        this.setSparklinesWanted(false);
      }, SPARKLINES_OFF_DELAY_MS);
    };
  };

  private setSparklinesWanted(wanted: boolean): void {
    if (this.sparklinesWanted === wanted) return;
    this.sparklinesWanted = wanted;
    this.onSparklinesWantedChange?.(wanted);
  }

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
      (message) => client.send(message),
      () => hub.containerSparklinesShown,
    );
    let connectedWithSparklines = hub.containerSparklinesShown;
    const sparklinesWanted = (wanted: boolean) => {
      if (wanted) router.containerSparklinesWanted();
      else router.containerSparklinesUnwanted();
    };
    const stopListening = hub.whenContainerSparklinesWantedChanges(sparklinesWanted);
    const client = new LiveClient({
      // Each connection says from the start whether it wants container sparklines.
      url: () => {
        connectedWithSparklines = hub.containerSparklinesShown;
        return liveUrl(window.location, connectedWithSparklines);
      },
      onStatus: (status) => {
        // A change while the socket was still connecting could not be sent: say it now (the
        // server ignores a repeat, and answers a turn-on with the full state).
        if (status === 'connected' && hub.containerSparklinesShown !== connectedWithSparklines)
          sparklinesWanted(hub.containerSparklinesShown);
        // The server closes a socket whose session ended (signed out elsewhere, by an admin):
        // asking who is signed in then sends a signed-out browser to the login page at once.
        if (status === 'disconnected')
          void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
        hub.setStatus(status);
      },
      onMessage: (message) => {
        router.route(message);
        hub.deliver(message);
      },
    });
    const cancelWait = whenFirstScreenSettled(queryClient, () => client.start());
    return () => {
      cancelWait();
      stopListening();
      client.stop();
    };
  }, [enabled, queryClient, hub]);

  return <LiveContext.Provider value={hub}>{children}</LiveContext.Provider>;
}

/**
 * For a screen that shows container sparklines: the server sends them only while one does
 * (the live router tells it, and gets a full state with them when one appears).
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
