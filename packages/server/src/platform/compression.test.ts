import Fastify, { type FastifyInstance } from 'fastify';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { registerCompression, SYNC_COMPRESS_MAX_BYTES } from './compression.js';

/** A JSON answer of about `bytes`, compressible as real answers are (repeated keys). */
const answerOf = (bytes: number) =>
  Array.from({ length: Math.ceil(bytes / 60) }, (_, i) => ({ id: `host-${i}`, status: 'online' }));

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

async function serve(bytes: number) {
  const server = Fastify();
  app = server;
  await registerCompression(server);
  server.get('/answer', () => answerOf(bytes));
  return (encoding: string) =>
    server.inject({ url: '/answer', headers: { 'accept-encoding': encoding } });
}

describe('compression of API answers', () => {
  it('compresses an answer of tens of KB in one call, with its length known, as br or gzip', async () => {
    const get = await serve(100 * 1024);
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // Only the synchronous path knows the compressed length; a stream goes out chunked.
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    const answer = JSON.parse(brotliDecompressSync(br.rawPayload).toString()) as unknown[];
    expect(answer).toHaveLength(answerOf(100 * 1024).length);

    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(answer);
  });

  it('streams an answer larger than the synchronous limit, so the event loop is not held', async () => {
    const get = await serve(SYNC_COMPRESS_MAX_BYTES * 2);
    const br = await get('br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-length']).toBeUndefined();
    const answer = JSON.parse(brotliDecompressSync(br.rawPayload).toString()) as unknown[];
    expect(answer).toHaveLength(answerOf(SYNC_COMPRESS_MAX_BYTES * 2).length);
  });
});
