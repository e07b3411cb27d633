import type { FastifyInstance } from 'fastify';

/**
 * Keeps every line the app's logger writes from now on, parsed, instead of printing it (build
 * the app with BERTH_LOG_LEVEL set and BERTH_LOG_FORMAT=json). pino writes each line to the one
 * destination stream its root and child loggers share (request loggers included); that
 * stream sits under a symbol of pino's, found by its description since pino is not a
 * dependency of the server package itself.
 */
export function captureLog(app: FastifyInstance): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const logger = app.log as unknown as Record<symbol, { write: (line: string) => unknown }>;
  let symbol: symbol | undefined;
  for (let o: object | null = logger; o !== null && symbol === undefined;) {
    symbol = Object.getOwnPropertySymbols(o).find((s) => s.description === 'pino.stream');
    o = Object.getPrototypeOf(o) as object | null;
  }
  const stream = symbol === undefined ? undefined : logger[symbol];
  if (stream === undefined) throw new Error("no pino stream on the app's logger");
  stream.write = (line: string) => {
    lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  };
  return lines;
}
