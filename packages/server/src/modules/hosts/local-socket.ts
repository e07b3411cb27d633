import { statSync } from 'node:fs';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import type { Db } from '../../db/database.js';
import { openEngine } from '../../docker/index.js';
import type { ProbeEngine } from './hosts.service.js';
import type { HostsService } from './hosts.service.js';

const FLAG = 'bootstrap.local_socket_checked';

/**
 * On the very first start, registers the local Docker socket as a host named after the
 * machine when it answers. Runs once: a user who deletes that host does not get it back.
 * A socket that is there but refuses this process (its group not given to the container)
 * is said in one warning at every start, and is registered at the first start that may use it.
 */
export async function registerLocalSocketOnce(
  db: Db,
  hosts: HostsService,
  probe: ProbeEngine,
  socketUrl: string,
  log: { warn: (msg: string) => void },
): Promise<boolean> {
  const denied = await socketDenied(socketUrl.slice('unix://'.length));
  if (denied !== null) {
    log.warn(denied);
    return false;
  }
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
    (await machineName(socketUrl))
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

const CONNECT_TIMEOUT_MS = 2000;

/**
 * The machine's name as its engine knows it: inside a container, Berth's own hostname is the
 * container's id, which says nothing to the operator. Berth's hostname when the engine does not say.
 */
async function machineName(socketUrl: string): Promise<string> {
  try {
    const { Name } = await openEngine({ url: socketUrl }, { timeoutMs: CONNECT_TIMEOUT_MS }).info();
    if (typeof Name === 'string' && Name.trim() !== '') return Name;
  } catch {
    // The version probe answered a moment ago; a failing info only loses the nicer name.
  }
  return hostname();
}

/**
 * What to do when connecting to the socket is refused for lack of permission (the socket's
 * group is not among the process's), or null when it connects or is simply not there.
 */
export async function socketDenied(path: string): Promise<string | null> {
  const code = await new Promise<string | null>((resolve) => {
    const socket = connect({ path });
    const done = (result: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(null), CONNECT_TIMEOUT_MS);
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? null));
  });
  if (code !== 'EACCES' && code !== 'EPERM') return null;
  const uid = process.getuid?.() ?? -1;
  const groups = [...new Set([process.getgid?.() ?? -1, ...(process.getgroups?.() ?? [])])];
  let gid = '<gid>';
  try {
    gid = String(statSync(path).gid);
  } catch {
    // the directory above it is not searchable either: the placeholder stays
  }
  return (
    `Docker socket ${path} is not readable by uid ${uid} (groups ${groups.join(',')}): ` +
    `give the container the socket's group (group_add: ["${gid}"] in compose.yaml, ` +
    `--group-add ${gid} for docker run, SupplementaryGroups=${gid} in a systemd unit; ` +
    `the gid is what \`stat -c %g ${path}\` prints)`
  );
}
