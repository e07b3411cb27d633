import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Pack } from 'tar';
import { encryptingStream, type ScryptCost } from './archive-crypto.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ARCHIVED_FILES,
  MANIFEST_FILE,
  type ArchivedFile,
  type Manifest,
} from './archive-format.js';

/**
 * gzip at zlib's fastest level: the database is mostly text (events, their search index) and
 * shrinks several times over even so, while the higher levels cost the machine's CPU, which
 * the server serving requests beside the backup needs more.
 */
export const ARCHIVE_GZIP = { level: 1 };

/** Size and SHA-256 of a file, read in chunks. */
export async function describeFile(dir: string, name: ArchivedFile['name']): Promise<ArchivedFile> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(join(dir, name))) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    size += bytes.length;
  }
  return { name, size, sha256: hash.digest('hex') };
}

export interface ArchiveInput {
  /** A folder holding ARCHIVED_FILES (the database copy and the key); the manifest goes there. */
  dir: string;
  berthVersion: string;
  /** The newest migration applied to the database copy. */
  schema: string;
  /** Encrypts the whole archive when given. */
  passphrase: string | null;
  /** scrypt's cost (tests use a cheaper one); the header states it. */
  cost?: ScryptCost;
}

/**
 * Writes the archive to `target` in one pass from the files (streams, nothing held whole in
 * memory): first as `target.partial`, renamed at the end, so a failed or interrupted backup
 * never leaves a half-written file under the name asked for. Mode 0600: it holds the key.
 * Returns the archive's size in bytes.
 */
export async function writeArchive(input: ArchiveInput, target: string): Promise<number> {
  const files = await Promise.all(ARCHIVED_FILES.map((name) => describeFile(input.dir, name)));
  const manifest: Manifest = {
    format: ARCHIVE_FORMAT,
    format_version: ARCHIVE_FORMAT_VERSION,
    berth_version: input.berthVersion,
    schema: input.schema,
    created_at: new Date().toISOString(),
    files,
  };
  await writeFile(join(input.dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  const encrypt =
    input.passphrase === null ? null : await encryptingStream(input.passphrase, input.cost);
  const partial = `${target}.partial`;
  await rm(partial, { force: true });
  const pack = new Pack({ cwd: input.dir, portable: true, gzip: ARCHIVE_GZIP });
  for (const name of [MANIFEST_FILE, ...ARCHIVED_FILES]) pack.add(name);
  pack.end();
  const out = createWriteStream(partial, { mode: 0o600 });
  try {
    if (encrypt === null) await pipeline(pack, out);
    else await pipeline(pack, encrypt, out);
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return (await stat(target)).size;
}
