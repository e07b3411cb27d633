import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase } from '../db/database.js';
import { KEY_FILE, SecretBox } from '../platform/secret-box.js';
import {
  backupOf,
  copyWith,
  dataDir,
  expectRefused,
  out,
  PASSPHRASE,
  printed as lines,
  removeTemps,
  snapshot,
  tmp,
} from '../test/backup-fixtures.js';
import { latestKnownSchema } from './archive-format.js';
import { backup, copyDatabase } from './backup.js';
import { isDatabaseInUse } from './instance-lock.js';
import { restore } from './restore.js';

let source: string;
let plain: string;
let encrypted: string;

beforeAll(async () => {
  source = await dataDir();
  plain = await backupOf(source);
  encrypted = await backupOf(source, PASSPHRASE);
});
afterAll(removeTemps);

describe('berth backup', () => {
  it('writes a 0600 archive and says that an unencrypted one holds secrets', async () => {
    lines.length = 0;
    const file = await backupOf(source);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lines.join('\n')).toMatch(/holds secrets: the encryption key/);
    expect(readdirSync(join(file, '..'))).toEqual(['plain.tar']);
  });

  it('an encrypted archive carries no readable trace of the database', () => {
    const bytes = readFileSync(encrypted);
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('BERTHENC');
    expect(bytes.includes(Buffer.from('berth-backup'))).toBe(false);
    expect(bytes.includes(Buffer.from('SQLite format'))).toBe(false);
  });

  it('says where nothing is to back up', async () => {
    await expect(
      backup({ file: join(tmp('out'), 'x.tar'), passphrase: null, dataDir: tmp('empty') }, out),
    ).rejects.toThrow(/^Cannot back up: no Berth database in /);
  });

  it(
    'copies a database that another connection keeps writing to',
    { timeout: 20_000 },
    async () => {
      // In steps of a few pages, each write between two steps would restart the copy: it never
      // ends while the server writes every few milliseconds.
      const dir = await dataDir();
      const writer = new SQLite(join(dir, DATABASE_FILE));
      writer.exec('create table filler (b blob); create table writes (at integer)');
      writer.exec(`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000)
      insert into filler select randomblob(4000) from n`);
      const insert = writer.prepare('insert into writes values (?)');
      const timer = setInterval(() => insert.run(Date.now()), 1);
      try {
        const dest = join(tmp('copy'), DATABASE_FILE);
        await copyDatabase(join(dir, DATABASE_FILE), dest);
        const copy = new SQLite(dest, { readonly: true });
        expect(copy.prepare('select count(*) as n from filler').get()).toEqual({ n: 5000 });
        copy.close();
      } finally {
        clearInterval(timer);
        writer.close();
      }
    },
  );
});

describe('berth restore', () => {
  it.each([
    ['plain', () => plain, null],
    ['encrypted', () => encrypted, PASSPHRASE],
  ])(
    'a %s backup gives the same database and key, the old files kept aside',
    async (_, file, pass) => {
      const target = await dataDir();
      const old = snapshot(target);
      lines.length = 0;
      await restore(
        { file: file(), passphrase: pass, dataDir: target, now: new Date('2026-12-04T01:52:03Z') },
        out,
      );
      const aside = join(target, 'before-restore-2026-12-04T01-52-03Z');
      expect(lines).toContain(`The replaced files are in ${aside}`);
      expect(snapshot(aside)).toEqual(old);
      expect(readFileSync(join(target, KEY_FILE))).toEqual(readFileSync(join(source, KEY_FILE)));
      const db = new SQLite(join(target, DATABASE_FILE), { readonly: true });
      const user = db.prepare('select display_name from users').get() as { display_name: string };
      db.close();
      expect(SecretBox.open(target).open(user.display_name)).toBe('channel-token');
      expect(readdirSync(target).sort()).toEqual(
        ['before-restore-2026-12-04T01-52-03Z', DATABASE_FILE, KEY_FILE].sort(),
      );
    },
  );

  it('into an empty data directory: nothing to keep aside', async () => {
    const dir = join(tmp('fresh'), 'data');
    lines.length = 0;
    await restore({ file: plain, passphrase: null, dataDir: dir }, out);
    expect(lines).toContain('The data directory held no database or key: nothing was replaced');
    expect(readdirSync(dir).sort()).toEqual([DATABASE_FILE, KEY_FILE]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses random bytes, an empty file and a tar that is not Berth’s', async () => {
    const dir = tmp('bad');
    writeFileSync(join(dir, 'random.tar'), randomBytes(100_000));
    writeFileSync(join(dir, 'empty.tar'), '');
    const other = join(dir, 'other.tar');
    const { create } = await import('tar');
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    await create({ file: other, cwd: dir, gzip: true }, ['notes.txt']);
    for (const name of ['random.tar', 'empty.tar', 'other.tar']) {
      await expectRefused(join(dir, name), 'not a Berth backup');
    }
  });

  it('refuses a truncated file, plain or encrypted', async () => {
    for (const [file, pass] of [
      [plain, null],
      [encrypted, PASSPHRASE],
    ] as const) {
      for (const keep of [0.5, 0.99]) {
        const cut = copyWith(file, (b) => b.subarray(0, Math.floor(b.length * keep)));
        await expectRefused(cut, 'truncated', pass);
      }
      const cut = copyWith(file, (b) => b.subarray(0, b.length - 1));
      await expectRefused(cut, 'truncated', pass);
    }
  });

  it('refuses a wrong passphrase, and an encrypted file without one', async () => {
    await expectRefused(encrypted, 'wrong passphrase', 'correct horse battery stapl');
    await expectRefused(
      encrypted,
      'it is encrypted: give its passphrase with --passphrase-file',
      null,
    );
  });

  it('refuses a tampered byte anywhere in an encrypted file', async () => {
    const size = statSync(encrypted).size;
    // In the header (authenticated as additional data), the middle, the tag.
    for (const at of [50, Math.floor(size / 2), size - 20]) {
      const changed = copyWith(encrypted, (b) => {
        const copy = Buffer.from(b);
        copy[at] = (copy[at] ?? 0) ^ 0x01;
        return copy;
      });
      const reason =
        at < 56 ? 'wrong passphrase' : 'damaged (altered or corrupted after it was written)';
      await expectRefused(changed, reason, PASSPHRASE);
    }
  });

  it('refuses a tampered byte in a plain file', async () => {
    // Changed in the archive's content (the database's bytes dominate its middle) and zipped
    // again: a byte flipped in the zipped form may decode to the same bytes (a back-reference
    // moved within a run of zeros), which is no change at all.
    const changed = copyWith(plain, (b) => {
      const tar = gunzipSync(b);
      const at = Math.floor(tar.length / 2);
      tar[at] = (tar[at] ?? 0) ^ 0x01;
      return gzipSync(tar);
    });
    await expectRefused(changed, 'damaged (berth.db does not match its checksum)');
    // The gzip check at the very end, after the tar's end blocks, is read too.
    const badCheck = copyWith(plain, (b) => {
      const copy = Buffer.from(b);
      const at = copy.length - 8;
      copy[at] = (copy[at] ?? 0) ^ 0x01;
      return copy;
    });
    await expectRefused(badCheck, 'damaged (altered or corrupted after it was written)');
  });

  it('refuses a backup made by a newer Berth, plain or encrypted', async () => {
    const newer = await dataDir('9999-from-the-future');
    const reason = `made by a newer Berth: schema 9999-from-the-future, this Berth knows up to ${latestKnownSchema()}`;
    await expectRefused(await backupOf(newer), reason);
    await expectRefused(await backupOf(newer, PASSPHRASE), reason, PASSPHRASE);
  });

  it('refuses while a process has the database open, and goes ahead once it closed it', async () => {
    const dir = await dataDir();
    const server = openDatabase(dir);
    await server.selectFrom('users').select('id').execute();
    expect(isDatabaseInUse(dir)).toBe(true);
    const before = snapshot(dir);
    await expect(restore({ file: plain, passphrase: null, dataDir: dir }, out)).rejects.toThrow(
      `Cannot restore while Berth is running on ${dir}: stop it first`,
    );
    expect(snapshot(dir)).toEqual(before);
    await server.destroy();
    expect(isDatabaseInUse(dir)).toBe(false);
    await restore({ file: plain, passphrase: null, dataDir: dir }, out);
    expect(existsSync(join(dir, KEY_FILE))).toBe(true);
  });
});
