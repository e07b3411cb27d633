import type { Host } from '@berth/contracts';
import { chownSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rigEngine } from '../../test/rig.js';
import {
  ensureServerBuilt,
  httpApi,
  signInAgain,
  signInFirstTime,
  startServer,
  stopServer,
  type ServerProcess,
} from '../../test/server-process.js';
import { waitFor } from '../../test/wait.js';

/**
 * The built server run as a user outside the Docker socket's group (tests run as root), on the
 * rig's main engine socket: one warning saying what to do; with the socket's group, the local
 * host is registered and online.
 */
const UID = 54321;
const local = rigEngine('local');
const socketPath = local.url.slice('unix://'.length);
let parent: string;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(() => {
  ensureServerBuilt();
  parent = mkdtempSync(join(tmpdir(), 'berth-socket-'));
  chownSync(parent, UID, UID); // the server makes its data directory in it
  dataDir = join(parent, 'data');
});
afterEach(async () => {
  if (server !== undefined) await stopServer(server);
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const startAs = async (gid: number) => {
  server = await startServer(dataDir, {
    uid: UID,
    gid,
    env: { BERTH_LOCAL_SOCKET: local.url },
  });
  return server;
};

describe('the Docker socket mounted but not readable', { timeout: 60_000 }, () => {
  it('gets one warning naming the socket, the uid, its groups and the gid to add', async () => {
    const socket = statSync(socketPath);
    // The rig's socket is root:<group> 0660, as Docker makes it: others may not connect.
    expect(socket.mode & 0o006).toBe(0);
    const first = await startAs(UID);
    const api = httpApi(first.base, await signInFirstTime(first.base));
    await new Promise((r) => setTimeout(r, 1000)); // anything else it would say, said
    const warnings = first
      .output()
      .split('\n')
      .filter((line) => line.includes('Docker socket'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0] ?? '')).toMatchObject({
      level: 40,
      msg:
        `Docker socket ${socketPath} is not readable by uid ${UID} (groups ${UID}): ` +
        `give the container the socket's group (group_add: ["${socket.gid}"] in compose.yaml, ` +
        `--group-add ${socket.gid} for docker run, SupplementaryGroups=${socket.gid} in a ` +
        `systemd unit; the gid is what \`stat -c %g ${socketPath}\` prints)`,
    });
    expect((await api<Host[]>('GET', '/hosts')).body).toEqual([]);
  });

  it("registers the local host at the first start with the socket's group, online", async () => {
    const gid = statSync(socketPath).gid;
    const next = await startAs(gid);
    const api = httpApi(next.base, await signInAgain(next.base));
    const host = await waitFor('the local host online', async () => {
      const [h] = (await api<Host[]>('GET', '/hosts')).body;
      return h?.status === 'online' && h;
    });
    expect(host.url).toBe(local.url);
    expect(next.output()).not.toContain('Docker socket');
  });
});
