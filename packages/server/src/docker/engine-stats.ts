import type Docker from 'dockerode';
import { routeOf } from './engine-client.js';
import { EngineError } from './engine-errors.js';

/**
 * One container's stats answer (`stats?stream=false&one-shot=true`), the hottest engine call:
 * every running container, every polling interval. It goes straight through the client's
 * guarded agent (the same timeouts and size cap as every other call): dockerode builds each request
 * with legacy URL parsing and a deep `util.inspect`, which with fifty remote engines was about
 * half of the server's work on stats (bench/remote-fleet). A client made elsewhere (a test's)
 * goes through dockerode.
 */
export function readContainerStats(
  docker: Docker,
  id: string,
  signal: AbortSignal,
): Promise<unknown> {
  const route = routeOf(docker);
  if (route === undefined) {
    // docker-modem honours abortSignal; the type definitions do not list it.
    const options = Object.assign(
      { stream: false as const, 'one-shot': true },
      { abortSignal: signal },
    );
    return docker.getContainer(id).stats(options);
  }
  const path = `/containers/${encodeURIComponent(id)}/stats?stream=false&one-shot=true`;
  return new Promise((resolve, reject) => {
    let ended = false;
    const req = route.request({ ...route.options, path, method: 'GET', signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        ended = true;
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          reject(new EngineError(`Engine answered ${status}: ${text.slice(0, 200).trim()}`));
          return;
        }
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(new EngineError('Engine answered stats that are not JSON'));
        }
      });
    });
    req.on('error', reject);
    // An answer cut short (the agent's size cap or idle timeout) closes without 'end'. Only
    // then is the error made: a stack trace on every read was 3 % of the server's CPU.
    req.on('close', () => {
      if (!ended) reject(new EngineError('Engine closed the stats answer'));
    });
    req.end();
  });
}
