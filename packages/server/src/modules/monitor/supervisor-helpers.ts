// Small stream and promise helpers of the host supervisor.

/** Stops an engine event stream for good, swallowing its late errors. */
export function destroyStream(stream: NodeJS.ReadableStream): void {
  const s = stream as NodeJS.ReadableStream & { destroy?: () => void };
  s.removeAllListeners('end');
  s.removeAllListeners('error');
  s.on('error', () => undefined);
  s.destroy?.();
}

/** `promise`, or an ETIMEDOUT error after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      ms,
    );
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
