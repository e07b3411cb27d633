import type { FastifyInstance } from 'fastify';

/** The part of a logger the stop needs: pino's (`app.log`) fits. */
export interface StopLogger {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

type StopSignal = 'SIGTERM' | 'SIGINT';
/** `process`, or an EventEmitter standing in for it in tests. */
export interface SignalTarget {
  on: (event: StopSignal, listener: () => void) => unknown;
  off: (event: StopSignal, listener: () => void) => unknown;
}

export interface GracefulStopOptions {
  /** Closes the server, lets work in flight finish and closes the database (`app.close()`). */
  stop: () => Promise<void>;
  logger: StopLogger;
  target?: SignalTarget;
  exit?: (code: number) => void;
  /** How long the stop may take before the process exits anyway (10 s). */
  deadlineMs?: number;
}

/** `docker stop` waits 10 s before SIGKILL; the stop is bounded so it ends before that. */
export const STOP_DEADLINE_MS = 10_000;
/**
 * A process ended by a signal reports 128 + its number (130 for SIGINT, 143 for SIGTERM):
 * a second signal is the operator cutting the stop short, which shells and supervisors read
 * as "terminated", not as a crash.
 */
const SIGNAL_EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * SIGTERM (what `docker stop` and systemd send) and SIGINT (Ctrl-C) stop Berth cleanly and
 * exit 0. A second signal exits at once with 128 + its number; a stop that is still running
 * after the deadline exits with 1, since something it waited on never finished. Returns a
 * function that removes the handlers.
 */
export function installGracefulStop(opts: GracefulStopOptions): () => void {
  const target = opts.target ?? process;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const deadlineMs = opts.deadlineMs ?? STOP_DEADLINE_MS;
  const log = opts.logger;
  let startedAt: number | null = null;

  const onSignal = (signal: StopSignal) => {
    if (startedAt !== null) {
      const code = SIGNAL_EXIT_CODES[signal];
      log.warn({ signal, code }, `second ${signal}: exiting at once without finishing the stop`);
      exit(code);
      return;
    }
    const started = Date.now();
    startedAt = started;
    log.info(
      { signal },
      `stopping on ${signal}: no new connections; finishing requests, notifications and database writes`,
    );
    const deadline = setTimeout(() => {
      log.error(
        { code: 1 },
        `the stop did not finish within ${deadlineMs / 1000} s: exiting at once`,
      );
      exit(1);
    }, deadlineMs);
    opts.stop().then(
      () => {
        clearTimeout(deadline);
        const ms = Date.now() - started;
        log.info({ ms }, `stopped cleanly in ${ms} ms`);
        exit(0);
      },
      (err: unknown) => {
        clearTimeout(deadline);
        log.error({ err, code: 1 }, 'the stop failed');
        exit(1);
      },
    );
  };
  const onTerm = () => onSignal('SIGTERM');
  const onInt = () => onSignal('SIGINT');
  target.on('SIGTERM', onTerm);
  target.on('SIGINT', onInt);
  return () => {
    target.off('SIGTERM', onTerm);
    target.off('SIGINT', onInt);
  };
}

/** How long requests in flight at a stop may still run before their connections are cut. */
export const REQUEST_DRAIN_MS = 3000;

/**
 * Bounds the wait for requests in flight (a container stop answered by a slow engine, a
 * notification test to a silent service), so the rest of the stop fits in the deadline. A
 * request cut here was never answered 2xx.
 */
export function limitRequestDrain(app: FastifyInstance, ms = REQUEST_DRAIN_MS): void {
  app.addHook('preClose', (done) => {
    const timer = setTimeout(() => {
      app.log.warn({ ms }, 'requests still running at the stop: their connections are closed');
      app.server.closeAllConnections();
    }, ms);
    timer.unref();
    app.server.once('close', () => clearTimeout(timer));
    done();
  });
}
