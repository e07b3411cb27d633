import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { AGENT_API_MAX_BODY_BYTES } from '@berth/contracts/agent-wire';

/** One request Berth sends to the agent itself: the parsed JSON body in, a JSON answer out. */
export type AgentHandler = (body: unknown) => Promise<unknown>;

/** Handlers by `METHOD path`, e.g. `POST /v1/http-probe`. */
export type AgentHandlers = ReadonlyMap<string, AgentHandler>;

/** A refusal a handler means to send as it is (bad input: 400), not as an internal error. */
export class AgentRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Serves a non-CONNECT stream: reads its JSON body (capped), runs the handler for its
 * method and path, and answers JSON, or `{"detail": …}` with 400, 404, 413 or 500.
 */
export function serveAgentRequest(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  handlers: AgentHandlers,
): void {
  const key = `${String(headers[':method'])} ${String(headers[':path'])}`;
  const handler = handlers.get(key);
  if (handler === undefined) {
    answer(stream, 404, { detail: `Unknown agent request: ${key}` });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > AGENT_API_MAX_BODY_BYTES) {
      answer(stream, 413, { detail: 'Request body is too large' });
      return;
    }
    chunks.push(chunk);
  });
  stream.once('end', () => {
    if (size > AGENT_API_MAX_BODY_BYTES) return;
    let body: unknown = null;
    try {
      if (size > 0) body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      answer(stream, 400, { detail: 'Request body is not JSON' });
      return;
    }
    // A handler that throws before its promise (a bad body's 400) answers too, never crashes.
    Promise.resolve(body)
      .then(handler)
      .then(
        (result) => answer(stream, 200, result ?? null),
        (err: unknown) =>
          err instanceof AgentRequestError
            ? answer(stream, err.status, { detail: err.message })
            : answer(stream, 500, { detail: err instanceof Error ? err.message : String(err) }),
      );
  });
}

function answer(stream: ServerHttp2Stream, status: number, body: unknown): void {
  if (stream.closed || stream.headersSent) return;
  stream.respond({ ':status': status, 'content-type': 'application/json' });
  stream.end(JSON.stringify(body));
}
