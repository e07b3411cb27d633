import { request } from 'node:http';

/**
 * A JSON GET on the local engine's socket, bounded in time and size; an answer of 400 or more
 * is a failure with its status.
 */
export function engineGet(
  socketPath: string,
  path: string,
  limits: { timeoutMs: number; capBytes: number },
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, timeout: limits.timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > limits.capBytes) req.destroy(new Error('the engine answered too much'));
      });
      res.on('end', () => {
        if ((res.statusCode ?? 500) >= 400) {
          reject(new Error(`the engine answered ${res.statusCode}`));
          return;
        }
        try {
          resolve(JSON.parse(body));
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('the engine did not answer in time')));
    req.on('error', reject);
    req.end();
  });
}
