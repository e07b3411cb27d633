import type { FastifyServerOptions } from 'fastify';
import type { AppConfig } from '../config/config.js';

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * Where log lines go. json: pino's own lines on stdout, one JSON object each, for `docker
 * logs` piped to a collector. pretty: pino-pretty on the main thread, writing synchronously
 * (pino's transports would run it in a worker thread: a second V8 heap for a few lines a
 * minute), loaded only when chosen, and coloured only on a terminal.
 */
export async function logDestination(
  config: Pick<AppConfig, 'logFormat' | 'logLevel'>,
): Promise<Pick<LoggerOptions, 'stream'>> {
  if (config.logFormat === 'json' || config.logLevel === 'silent') return {};
  const { default: pretty } = await import('pino-pretty');
  return {
    stream: pretty({
      sync: true,
      translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
      ignore: 'pid,hostname',
    }),
  };
}
