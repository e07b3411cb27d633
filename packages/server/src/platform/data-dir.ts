import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DATABASE_FILE } from '../db/database.js';
import { KEY_FILE } from './secret-box.js';

/** The data directory cannot be used; the message names the path, the uids and the fix. */
export class DataDirError extends Error {
  override name = 'DataDirError';
}

/** Who Berth runs as. */
export interface ProcessIdentity {
  uid: number;
}

const READ_WRITE = constants.R_OK | constants.W_OK;
/** What Berth writes in the data directory; the key is only read once it exists. */
const DATA_FILES: [name: string, mode: number][] = [
  [DATABASE_FILE, READ_WRITE],
  [`${DATABASE_FILE}-wal`, READ_WRITE],
  [`${DATABASE_FILE}-shm`, READ_WRITE],
  [KEY_FILE, constants.R_OK],
];

const errnoOf = (err: unknown) =>
  err instanceof Error && 'code' in err ? String((err as { code: unknown }).code) : '';

/**
 * Makes sure Berth can create, read and write its data directory and the files in it before
 * anything opens them. A volume made by another user (a container run as a different uid, a
 * restore done as root) is the usual cause, and SQLite alone would only say "unable to open
 * database file" or "attempt to write a readonly database".
 */
export function checkDataDir(
  dir: string,
  who: ProcessIdentity = { uid: process.getuid?.() ?? -1 },
): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const parent = nearestExisting(dirname(dir));
    const denied = deniedBy(err, parent, 'not writable', who);
    throw new DataDirError(
      denied === null
        ? `Data directory ${dir} cannot be created: ${reasonOf(err, parent)}`
        : `Data directory ${dir} cannot be created: ${denied}: ` +
            `mkdir -p ${dir} && chown -R ${who.uid} ${dir}, or run Berth as uid ${ownerOf(parent)}`,
    );
  }
  if (!statSync(dir).isDirectory())
    throw new DataDirError(`Data directory ${dir} is not a directory: point BERTH_DATA_DIR at one`);
  check('Data directory', dir, constants.R_OK | constants.W_OK | constants.X_OK, dir, who);
  for (const [name, mode] of DATA_FILES) {
    const path = join(dir, name);
    if (existsSync(path)) check('Data file', path, mode, dir, who);
  }
}

function check(what: string, path: string, mode: number, dir: string, who: ProcessIdentity) {
  try {
    accessSync(path, mode);
  } catch (err) {
    const denied = deniedBy(
      err,
      path,
      mode === constants.R_OK ? 'not readable' : 'not writable',
      who,
    );
    if (denied === null) throw new DataDirError(`${what} ${reasonOf(err, path)}`);
    const owner = ownerOf(path);
    const fix =
      owner === who.uid
        ? `chmod -R u+rwX ${dir}`
        : `chown -R ${who.uid} ${dir}, or run Berth as uid ${owner}`;
    throw new DataDirError(`${what} ${denied}: ${fix}`);
  }
}

/** "<path> is owned by uid 0 and not writable by uid 1000 (...)", or null if not a denial. */
function deniedBy(err: unknown, path: string, verb: string, who: ProcessIdentity): string | null {
  const code = errnoOf(err);
  if (code !== 'EACCES' && code !== 'EPERM') return null;
  const owner = ownerOf(path);
  return owner === who.uid
    ? `${path} is ${verb} by its owner, uid ${owner} (the uid Berth runs as)`
    : `${path} is owned by uid ${owner} and ${verb} by uid ${who.uid} (the uid Berth runs as)`;
}

/** Any other failure, said plainly (a read-only file system above all). */
function reasonOf(err: unknown, path: string): string {
  if (errnoOf(err) === 'EROFS') return `${path} is on a read-only file system: mount it read-write`;
  return `${path} cannot be used: ${err instanceof Error ? err.message : String(err)}`;
}

function ownerOf(path: string): number {
  return statSync(path).uid;
}

function nearestExisting(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}
