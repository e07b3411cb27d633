import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../db/database.js';
import { createExecStore, type NewExecRecording } from './exec.store.js';

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'berth-exec-store-'));
  db = openDatabase(dir);
  await migrateToLatest(db);
});

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const row = (startedAt: number): NewExecRecording => ({
  started_at: startedAt,
  ended_at: startedAt + 1000,
  actor: 'admin',
  host_id: 'h1',
  container_id: 'c1',
  command: '/bin/sh',
  input: 'ls\r',
  truncated: 0,
});

describe('the shell recordings table', () => {
  it('keeps recordings until their retention, then deletes the older ones', async () => {
    const store = createExecStore(db);
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    await store.insert(row(now - 40 * day));
    await store.insert(row(now - 10 * day));
    await store.insert(row(now));
    expect(await store.count()).toBe(3);
    expect(await store.pruneOlderThan(now - 30 * day)).toBe(1);
    expect(await store.count()).toBe(2);
  });
});
