import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { create, extract } from 'tar';
import { afterAll, describe, it } from 'vitest';
import { DATABASE_FILE } from '../db/database.js';
import { KEY_FILE } from '../platform/secret-box.js';
import { backupOf, dataDir, expectRefused, removeTemps, tmp } from '../test/backup-fixtures.js';
import { MANIFEST_FILE, type ArchivedFile } from './archive-format.js';
import { writeArchive } from './archive-write.js';

afterAll(removeTemps);

/** A backup unpacked, changed by `change`, and packed again (uncompressed unless told). */
async function repacked(change: (dir: string) => void, gzip = false): Promise<string> {
  const dir = tmp('repack');
  await extract({ file: await backupOf(await dataDir()), cwd: dir });
  change(dir);
  const file = join(tmp('out'), 'repacked.tar');
  await create({ file, cwd: dir, gzip }, [MANIFEST_FILE, DATABASE_FILE, KEY_FILE]);
  return file;
}

/** An archive written the way backup writes one, of a database whose file `spoil` changed. */
async function archiveOf(spoil: (path: string) => void): Promise<string> {
  const source = await dataDir();
  const dir = tmp('work');
  copyFileSync(join(source, DATABASE_FILE), join(dir, DATABASE_FILE));
  copyFileSync(join(source, KEY_FILE), join(dir, KEY_FILE));
  spoil(join(dir, DATABASE_FILE));
  const file = join(tmp('out'), 'crafted.tar');
  const input = { dir, berthVersion: '0.1.0', passphrase: null };
  await writeArchive({ ...input, schema: '0015-events-search-partitions' }, file);
  return file;
}

/** Changes a value in an index's page only: the index no longer matches its table. */
function spoilIndex(path: string): void {
  const db = new SQLite(path);
  db.exec('create table spoiled (a); create index spoiled_a on spoiled (a)');
  db.prepare('insert into spoiled values (?)').run('value-AAAA');
  const { rootpage } = db
    .prepare("select rootpage from sqlite_master where name = 'spoiled_a'")
    .get() as { rootpage: number };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const bytes = readFileSync(path);
  const page = bytes.subarray((rootpage - 1) * pageSize, rootpage * pageSize);
  const at = page.indexOf('value-AAAA');
  page[at + 9] = 'B'.charCodeAt(0);
  writeFileSync(path, bytes);
}

describe('berth restore of archives made by hand', () => {
  it('an uncompressed archive with a changed database byte: its checksum', async () => {
    const file = await repacked((dir) => {
      const path = join(dir, DATABASE_FILE);
      const bytes = readFileSync(path);
      bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
      writeFileSync(path, bytes);
    });
    await expectRefused(file, 'damaged (berth.db does not match its checksum)');
  });

  it('a manifest of a newer archive format', async () => {
    const file = await repacked((dir) => {
      const path = join(dir, MANIFEST_FILE);
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      writeFileSync(path, JSON.stringify({ ...manifest, format_version: 2, files: 'other' }));
    }, true);
    await expectRefused(file, 'made by a newer Berth: archive format 2, this Berth reads up to 1');
  });

  it('a manifest that is not Berth’s, or not JSON', async () => {
    for (const text of ['{"format":"other-backup"}', 'not json']) {
      const file = await repacked((dir) => writeFileSync(join(dir, MANIFEST_FILE), text));
      await expectRefused(file, 'not a Berth backup');
    }
  });

  it('a database that fails SQLite’s integrity check', async () => {
    const file = await archiveOf(spoilIndex);
    await expectRefused(
      file,
      "damaged (its database fails SQLite's integrity check: row 1 missing from index spoiled_a)",
    );
  });

  it('a key file that holds no key', async () => {
    const file = await repacked((dir) => {
      writeFileSync(join(dir, KEY_FILE), 'short');
      const path = join(dir, MANIFEST_FILE);
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as { files: ArchivedFile[] };
      manifest.files = manifest.files.map((f) =>
        f.name === KEY_FILE
          ? { ...f, size: 5, sha256: createHash('sha256').update('short').digest('hex') }
          : f,
      );
      writeFileSync(path, JSON.stringify(manifest));
    });
    await expectRefused(file, 'damaged (its secret.key does not hold a key)');
  });
});
