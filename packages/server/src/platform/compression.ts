import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * API answers above 1 KB are compressed with brotli or gzip, whichever the client prefers
 * among those it accepts, at fast levels: they are written per request (a thousand
 * containers, ~640 KB of JSON, compress in a few ms at brotli 4 against ~50 ms at 11).
 * Static assets are not compressed here: the build writes .br and .gz beside them
 * (web-app.ts), and an answer that already has a content-encoding is left alone.
 * docs/decisions/009-compression.md
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: 5 },
  });
}
