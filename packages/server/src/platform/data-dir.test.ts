import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureServerBuilt,
  freePort,
  SERVER_MAIN,
  serverEnv,
  startServer,
  stopServer,
} from '../test/server-process.js';

/**
 * The built server run as another uid than its data's owner (tests run as root): one line
 * naming the path, both uids and the fix, exit 1, no stack trace.
 */
const UID = 54321;
const dirs: string[] = [];
const rootDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-owner-')); // root's, mode 0700
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
beforeAll(() => ensureServerBuilt());

/** Starts the server as UID on `dataDir`; it is expected to refuse and exit. */
async function refusal(dataDir: string) {
  const run = spawnSync(process.execPath, [SERVER_MAIN], {
    env: serverEnv(dataDir, await freePort()),
    uid: UID,
    gid: UID,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr.trimEnd() };
}

describe('a data directory Berth cannot write', { timeout: 30_000 }, () => {
  it('owned by another uid: says which, whose, and how to fix it', async () => {
    const dir = rootDir();
    expect(await refusal(dir)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Data directory ${dir} is owned by uid 0 and not writable by uid ${UID} ` +
        `(the uid Berth runs as): chown -R ${UID} ${dir}, or run Berth as uid 0`,
    });
  });

  it('holding a database file another uid made (a restore done as root)', async () => {
    const dir = rootDir();
    new SQLite(join(dir, 'berth.db')).close(); // root's, mode 0644
    chownSync(dir, UID, UID);
    expect(await refusal(dir)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Data file ${dir}/berth.db is owned by uid 0 and not writable by uid ${UID} ` +
        `(the uid Berth runs as): chown -R ${UID} ${dir}, or run Berth as uid 0`,
    });
  });

  it('not there yet, in a directory Berth may not write: how to create it', async () => {
    const parent = rootDir();
    const dir = join(parent, 'data');
    expect(await refusal(dir)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Data directory ${dir} cannot be created: ${parent} is owned by uid 0 and not writable ` +
        `by uid ${UID} (the uid Berth runs as): mkdir -p ${dir} && chown -R ${UID} ${dir}, ` +
        `or run Berth as uid 0`,
    });
  });

  it('starts as that uid once the directory is its own', async () => {
    const parent = rootDir();
    const dir = join(parent, 'data');
    mkdirSync(dir);
    for (const path of [parent, dir]) chownSync(path, UID, UID);
    const server = await startServer(dir, { uid: UID, gid: UID });
    try {
      expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
    } finally {
      await stopServer(server);
    }
    expect((await server.exited).code).toBe(0);
  });
});
