import type { FastifyInstance } from 'fastify';

/**
 * Starts a test app on a loopback port (any free one unless given) and returns its base URL,
 * `http://127.0.0.1:<port>`: for what must dial Berth for real (agents, browsers).
 */
export async function listenOnLoopback(app: FastifyInstance, port = 0): Promise<string> {
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}
