/** The part of a logger the guards need: pino's (`app.log`) and a console adapter both fit. */
export interface GuardLogger {
  error: (obj: { err: unknown }, msg: string) => void;
  fatal: (obj: { err: unknown }, msg: string) => void;
}

type GuardEvent = 'unhandledRejection' | 'uncaughtException';
/** `process`, or an EventEmitter standing in for it in tests. */
export interface GuardTarget {
  on: (event: GuardEvent, listener: (reason: unknown) => void) => unknown;
  off: (event: GuardEvent, listener: (reason: unknown) => void) => unknown;
}

export interface ProcessGuardOptions {
  /** Read at each event, so main can switch from the console to the app logger once it exists. */
  logger: () => GuardLogger;
  /** The process to guard; tests pass an EventEmitter. */
  target?: GuardTarget;
  exit?: (code: number) => void;
}

/** Console output until the app logger exists (a failing start-up has no pino yet). */
export const consoleGuardLogger: GuardLogger = {
  error: ({ err }, msg) => console.error(msg, err),
  fatal: ({ err }, msg) => console.error(msg, err),
};

/**
 * Process-level safety net; returns a function that removes it.
 *
 * A rejected promise nobody awaited (a fire-and-forget event write that met a busy database,
 * say) is logged and the server keeps serving: it left no half-done synchronous work behind,
 * and ending the process would turn one lost write into an outage.
 *
 * An uncaught exception is logged and the process exits with 1. It unwound a synchronous call
 * midway, so in-memory state (monitor caches, queues, timers) may be inconsistent; SQLite's
 * transactions keep the file sound, and a restart by the supervisor (Docker's restart policy)
 * rebuilds memory from the database and the engines.
 */
export function installProcessGuards(opts: ProcessGuardOptions): () => void {
  const target = opts.target ?? process;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const onRejection = (reason: unknown) => {
    opts.logger().error({ err: reason }, 'unhandled promise rejection (still serving)');
  };
  const onException = (err: unknown) => {
    opts.logger().fatal({ err }, 'uncaught exception; exiting so that a supervisor restarts Berth');
    exit(1);
  };
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}
