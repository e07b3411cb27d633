/** Named one-shot timers: setting a name again replaces its timer. */
export class Timers {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  has(key: string): boolean {
    return this.timers.has(key);
  }

  later(key: string, ms: number, fn: () => void): void {
    this.cancel(key);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        fn();
      }, ms),
    );
  }

  cancel(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  /** Cancels every timer whose name starts with `prefix`. */
  cancelPrefixed(prefix: string): void {
    for (const key of [...this.timers.keys()]) if (key.startsWith(prefix)) this.cancel(key);
  }

  clear(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
