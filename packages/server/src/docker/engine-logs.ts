import type { IncomingMessage } from 'node:http';
import type Docker from 'dockerode';
import { silentEngineMessage } from './engine-agent.js';
import { limitsOf } from './engine-client.js';
import { EngineError } from './engine-errors.js';
import type { ContainerLogsQuery } from './engine-types.js';

/**
 * Reads a container's logs (stdout, stderr, timestamps, no follow) as a stream, chunk by
 * chunk, instead of the whole answer in one buffer: `onChunk` bounds what it keeps and
 * returns false once it wants no more (the read stops there). A pause longer than the
 * client's timeout fails the read.
 */
export async function readContainerLogs(
  docker: Docker,
  containerId: string,
  query: ContainerLogsQuery,
  onChunk: (chunk: Buffer) => boolean,
): Promise<void> {
  const res = await openLogs(docker, containerId, query);
  const idleMs = limitsOf(docker).idleTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    const idle = setTimeout(
      () => res.destroy(new EngineError(silentEngineMessage(idleMs))),
      idleMs,
    );
    const settle = (err?: unknown) => {
      clearTimeout(idle);
      if (err === undefined) resolve();
      else reject(err instanceof Error ? err : new EngineError('The logs stream failed'));
    };
    res.on('data', (chunk: Buffer) => {
      idle.refresh();
      if (onChunk(chunk)) return;
      res.removeAllListeners('data');
      res.on('error', () => undefined); // stopping early makes the socket's end an error
      res.destroy();
      settle();
    });
    res.once('end', () => settle());
    res.once('error', settle);
    res.once('close', () => settle()); // after 'end' or 'error', this changes nothing
  });
}

/** GET /containers/{id}/logs as a stream: dockerode only streams logs when following. */
function openLogs(
  docker: Docker,
  containerId: string,
  query: ContainerLogsQuery,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    docker.modem.dial(
      {
        path: `/containers/${encodeURIComponent(containerId)}/logs?`,
        method: 'GET',
        isStream: true,
        statusCodes: { 200: true, 404: 'no such container', 500: 'server error' },
        options: {
          stdout: true,
          stderr: true,
          timestamps: true,
          follow: false,
          tail: query.tail,
          ...(query.since === undefined ? {} : { since: query.since }),
        },
      },
      (err, result) => {
        if (err !== null) reject(err);
        else resolve(result as IncomingMessage);
      },
    );
  });
}
