import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };
const ASSETS_PREFIX = '/assets/';

interface CompressedAsset {
  contentType: string;
  copies: Partial<Record<Encoding, Buffer>>;
}

/**
 * The build's scripts and stylesheets, as their compressed copies, by file name. Only the
 * copies the build wrote (packages/web/precompress.ts): about 1 MB in all.
 */
function readCompressedAssets(dir: string): Map<string, CompressedAsset> {
  const assets = new Map<string, CompressedAsset>();
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return assets; // a build without assets: nothing to hold
  }
  const present = new Set(files);
  for (const file of files) {
    const contentType = CONTENT_TYPES[extname(file)];
    if (contentType === undefined) continue;
    const copies: CompressedAsset['copies'] = {};
    for (const encoding of ENCODINGS)
      if (present.has(file + SUFFIX[encoding]))
        copies[encoding] = readFileSync(join(dir, file + SUFFIX[encoding]));
    if (Object.keys(copies).length > 0) assets.set(file, { contentType, copies });
  }
  return assets;
}

/**
 * Answers requests for the build's hashed scripts and stylesheets from memory, compressed as
 * the browser accepts. Each one from disk took ~5 ms of the event loop (a stat, an open, a
 * read stream); a cold load asks for eleven at once, and on a busy server they queued
 * before the first screen's reads (bench/dashboard). Anything else (no accepted encoding,
 * another file) goes on to the static files.
 */
export function serveCompressedAssets(app: FastifyInstance, dir: string): void {
  const assets = readCompressedAssets(dir);
  if (assets.size === 0) return;
  app.addHook('onRequest', (request, reply, done) => {
    const answer = pick(assets, request.method, request.url, request.headers['accept-encoding']);
    if (answer === null) {
      done();
      return;
    }
    // Hashed file names never change content: cached for a year, as the static files are.
    void reply
      .header('content-type', answer.contentType)
      .header('content-encoding', answer.encoding)
      .header('vary', 'accept-encoding')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(answer.body);
  });
}

/** The copy to answer with, or null to leave the request to the static files. */
function pick(
  assets: Map<string, CompressedAsset>,
  method: string,
  url: string,
  acceptEncoding: string | undefined,
): { contentType: string; encoding: Encoding; body: Buffer } | null {
  if (!url.startsWith(ASSETS_PREFIX) || (method !== 'GET' && method !== 'HEAD')) return null;
  const asset = assets.get(url.slice(ASSETS_PREFIX.length));
  if (asset === undefined) return null;
  const encoding = negotiate(acceptEncoding ?? '', Object.keys(asset.copies) as Encoding[]);
  const body = encoding === null ? undefined : asset.copies[encoding];
  return encoding === null || body === undefined
    ? null
    : { contentType: asset.contentType, encoding, body };
}
