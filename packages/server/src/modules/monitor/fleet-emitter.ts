import type { FleetEvent, FleetEventMap, FleetListener } from './fleet.js';

type AnyListener = (payload: FleetEventMap[FleetEvent]) => void;

/**
 * Typed listeners of the fleet's events. A listener that throws is isolated: the monitor
 * and the other listeners go on (one faulty subscriber must not stop auto-restart).
 */
export class FleetEmitter {
  private readonly listeners = new Map<FleetEvent, Set<AnyListener>>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => undefined) {}

  on<E extends FleetEvent>(event: E, listener: FleetListener<E>): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) this.listeners.set(event, (set = new Set()));
    const entry = listener as AnyListener;
    set.add(entry);
    return () => set.delete(entry);
  }

  emit<E extends FleetEvent>(event: E, payload: FleetEventMap[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
