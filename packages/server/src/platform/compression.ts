import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const BROTLI_FAST = {
  [constants.BROTLI_PARAM_QUALITY]: 4,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
};
const GZIP_LEVEL = 5;
/**
 * Answers up to this size are compressed in one synchronous call (≤ ~4 ms at brotli 4 on a
 * slow core); larger ones, and streams, through zlib streams on libuv's threadpool. The
 * plugin's default on two cores is 8 KB: the fifty-host list then went through a stream,
 * and while a page loaded (its static files on the same threadpool, the event loop busy
 * with stats) it was held 235-545 ms after its handler had finished (bench/dashboard).
 */
export const SYNC_COMPRESS_MAX_BYTES = 256 * 1024;

/**
 * API answers above 1 KB are compressed with brotli or gzip, whichever the client prefers
 * among those it accepts, at fast levels: they are written per request (a thousand
 * containers, ~640 KB of JSON, compress in a few ms at brotli 4 against ~50 ms at 11;
 * the shared container list is compressed once per text: `SharedJsonBody`).
 * Static assets are not compressed here: the build writes .br and .gz beside them
 * (web-app.ts), and an answer that already has a content-encoding is left alone.
 * docs/decisions/010-speed-first-screen-deltas-compression.md
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    syncThreshold: SYNC_COMPRESS_MAX_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: BROTLI_FAST },
    zlibOptions: { level: GZIP_LEVEL },
  });
}

/** br or gzip as the request accepts them (br first), or null for none. */
export function acceptedEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const header = request.headers['accept-encoding'];
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const wants = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return wants('br') ? 'br' : wants('gzip') ? 'gzip' : null;
}

/**
 * Sends a JSON text that many requests share (the container list, written once a second at
 * most), compressing each text once per encoding instead of once per request.
 */
export class SharedJsonBody {
  private text: string | null = null;
  private readonly encoded = new Map<'br' | 'gzip', Buffer>();

  send(request: FastifyRequest, reply: FastifyReply, text: string): FastifyReply {
    reply.type('application/json');
    const encoding = acceptedEncoding(request);
    if (encoding === null || Buffer.byteLength(text) < COMPRESS_THRESHOLD_BYTES)
      return reply.send(text);
    if (text !== this.text) {
      this.text = text;
      this.encoded.clear();
    }
    let body = this.encoded.get(encoding);
    if (body === undefined) {
      body =
        encoding === 'br'
          ? brotliCompressSync(text, { params: BROTLI_FAST })
          : gzipSync(text, { level: GZIP_LEVEL });
      this.encoded.set(encoding, body);
    }
    return reply.header('content-encoding', encoding).header('vary', 'accept-encoding').send(body);
  }
}
