import { hostname } from 'node:os';
import type { Db } from '../../db/database.js';
import type { ProbeEngine } from './hosts.service.js';
import type { HostsService } from './hosts.service.js';

const FLAG = 'bootstrap.local_socket_checked';

/**
 * On the very first start, registers the local Docker socket as a host named after the
 * machine when it answers. Runs once: a user who deletes that host does not get it back.
 */
export async function registerLocalSocketOnce(
  db: Db,
  hosts: HostsService,
  probe: ProbeEngine,
  socketUrl: string,
): Promise<boolean> {
  const done = await db
    .selectFrom('settings')
    .select('key')
    .where('key', '=', FLAG)
    .executeTakeFirst();
  if (done !== undefined) return false;
  await db.insertInto('settings').values({ key: FLAG, value: 'true' }).execute();
  try {
    await probe({ url: socketUrl, tls: null });
  } catch {
    return false; // no local engine: nothing to register
  }
  if ((await hosts.sameEngine(socketUrl, false)) !== undefined) return false;
  const name =
    hostname()
      .replace(/[^a-zA-Z0-9 ._-]/g, '-')
      .replace(/^[^a-zA-Z0-9]+/, '') || 'local';
  await hosts.create(
    {
      name: name.slice(0, 100),
      url: socketUrl,
      tags: ['local'],
      description: 'This machine',
      tls_ca: null,
      tls_cert: null,
      tls_key: null,
    },
    { username: 'system' },
  );
  return true;
}
