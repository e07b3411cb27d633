/**
 * Typed listeners of a module's events (the fleet's, the hosts'). A listener that throws is
 * isolated: the emitter and the other listeners go on (one faulty subscriber must not stop
 * auto-restart or the alert engine).
 */
export class TypedEmitter<M extends object> {
  private readonly listeners = new Map<keyof M, Set<(payload: never) => void>>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => undefined) {}

  /** Subscribes; answers the unsubscribe. */
  on<E extends keyof M>(event: E, listener: (payload: M[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<E extends keyof M>(event: E, payload: M[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (payload: M[E]) => void)(payload);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
