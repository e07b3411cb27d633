import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCheckpointer } from './checkpointer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function walDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'berth-checkpoint-'));
  dirs.push(dir);
  const file = join(dir, 'berth.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table t (v blob)');
  return { sqlite, file };
}

const autocheckpoint = (sqlite: SQLite.Database) =>
  sqlite.pragma('wal_autocheckpoint', { simple: true });

describe('the checkpoint worker', () => {
  it('takes checkpoints off the main connection and makes them itself', async () => {
    const { sqlite, file } = walDatabase();
    const errors: string[] = [];
    const checkpointer = startCheckpointer(sqlite, file, (m) => errors.push(m));
    expect(autocheckpoint(sqlite)).toBe(0);
    // ~8 MB: twice SQLite's own checkpoint size, all of it left in the log by the commits.
    const insert = sqlite.prepare('insert into t values (randomblob(4096))');
    sqlite.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run();
    })();
    expect(statSync(file).size).toBeLessThan(1_000_000);
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(7_000_000), {
      timeout: 5000,
      interval: 100,
    });
    checkpointer.stop();
    sqlite.close();
    expect(errors).toEqual([]);
  });

  it('gives checkpoints back to the main connection when the worker fails', async () => {
    const { sqlite } = walDatabase();
    const errors: string[] = [];
    startCheckpointer(sqlite, '/nonexistent/dir/berth.db', (m) => errors.push(m));
    await vi.waitFor(() => expect(autocheckpoint(sqlite)).toBe(1000), { timeout: 5000 });
    expect(errors.join()).toMatch(/the main connection checkpoints again/);
    sqlite.close();
  });
});
