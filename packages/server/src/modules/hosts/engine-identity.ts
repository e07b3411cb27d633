import { realpath } from 'node:fs/promises';
import { engineIdentity, normalSocketPath, parseEngineUrl } from '@berth/contracts';

/**
 * Which engine a host URL reaches, as one text (see engineIdentity: `tcp://` and `http://`
 * spellings, default ports, host name case), a unix socket's path also followed through
 * symbolic links when it exists here (`/var/run` is `/run` on most systems). Null for a URL
 * that names no engine.
 */
export async function engineIdentityOf(url: string, tls: boolean): Promise<string | null> {
  const address = parseEngineUrl(url);
  if ('error' in address) return null;
  if (address.kind === 'network') return engineIdentity(address, tls);
  const path = normalSocketPath(address.path);
  const real = await realpath(path).catch(() => path);
  return engineIdentity({ kind: 'unix', path: real }, tls);
}
