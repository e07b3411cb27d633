import http, {
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { describeSocketError } from './engine-socket.js';

/** The Engine API's own error shape, so Berth reports it as it reports any engine refusal. */
export const READ_ONLY_MESSAGE = 'This agent is read-only: actions are refused';
const READS = new Set(['GET', 'HEAD']);
/**
 * Reads that carry a container's or an image's files out whole (export, archive, image save):
 * a read-only agent lends its engine for watching, not for taking secrets off the host, and
 * Berth itself never asks for them. Matched on the path, with or without an API version.
 */
const FILE_EXPORTS =
  /^(?:\/v[0-9.]+)?\/(?:containers\/[^/?]+\/(?:export|archive)|images\/(?:[^?]+\/)?get)(?:\?|$)/;
export const READ_ONLY_EXPORT_MESSAGE =
  'This agent is read-only: copying files out of containers or images is refused';
/** Connection-level headers of the engine's answer: Node frames the answer to Berth itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

export interface ReadOnlyEngine {
  /** Serves one tunnel (a CONNECT stream): Berth's HTTP/1.1 requests on it, one after another. */
  serve: (tunnel: Duplex) => void;
  close: () => void;
}

/**
 * A read-only agent cannot pipe a tunnel's bytes to the engine: they are raw HTTP/1.1, and a
 * POST is an action. Each tunnel is served by a Node HTTP server instead: GET and HEAD go to
 * the engine socket and their answers stream back as they come (a followed log, events, a stats
 * stream), every other method and every upgrade (attach, exec: they write to a container)
 * answers 403 with `{"message": …}` as the engine words its own errors. Keep-alive holds on
 * both sides; one engine connection per request under way.
 */
export function readOnlyEngine(socketPath: string): ReadOnlyEngine {
  const engineAgent = new http.Agent({ keepAlive: true });
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    if (!READS.has(req.method ?? '')) refuse(res, READ_ONLY_MESSAGE);
    else if (FILE_EXPORTS.test(req.url ?? '')) refuse(res, READ_ONLY_EXPORT_MESSAGE);
    else forwardRead(req, res, socketPath, engineAgent);
  });
  // No request deadline here: Berth bounds its own calls, and a followed log may last days.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
    const body = JSON.stringify({ message: READ_ONLY_MESSAGE });
    socket.end(
      `HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  server.on('clientError', (_err, socket: Duplex) => socket.destroy());
  return {
    serve: (tunnel) => server.emit('connection', tunnel),
    close: () => {
      server.close();
      engineAgent.destroy();
    },
  };
}

function refuse(res: ServerResponse, message: string): void {
  const body = JSON.stringify({ message });
  res.writeHead(403, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function forwardRead(
  req: IncomingMessage,
  res: ServerResponse,
  socketPath: string,
  agent: http.Agent,
): void {
  const upstream = http.request({
    socketPath,
    agent,
    method: req.method,
    path: req.url,
    headers: withoutHopByHop(req.headers),
  });
  upstream.once('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.headers));
    // Headers go at once: a followed log or the event stream may send nothing for minutes.
    res.flushHeaders();
    answer.pipe(res);
    answer.once('error', () => res.destroy());
  });
  upstream.once('error', (err) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({ message: describeSocketError(err, socketPath) });
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(body);
  });
  // Berth gave up on the answer (a log it stopped following): the engine's side goes too.
  res.once('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

function withoutHopByHop(headers: http.IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}
