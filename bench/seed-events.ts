// Fills a Berth database's events table directly, as months of a busy fleet would: one
// transaction per 50,000 rows, and after each the server's own check that starts a new
// partition of the search index (the server checks as it stores events; this bypasses it).
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(join(ROOT, 'packages/server/package.json'));
const SQLite = require('better-sqlite3') as typeof import('better-sqlite3');
const BATCH = 50_000;

export async function seedEvents(options: {
  file: string;
  count: number;
  /** The i-th event's columns (every row has the same). */
  row: (i: number) => Record<string, unknown>;
  rollIndexIfFull: () => Promise<boolean>;
}): Promise<void> {
  const db = new SQLite(options.file);
  const columns = Object.keys(options.row(0));
  const insert = db.prepare(
    `insert into events (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) insert.run(options.row(i));
  });
  for (let from = 0; from < options.count; from += BATCH) {
    batch(from, Math.min(options.count, from + BATCH));
    await options.rollIndexIfFull();
  }
  db.close();
}

const dist = (path: string) => join(ROOT, 'packages/server/dist', path);

/**
 * A data directory's database, created and migrated by the built server's code, with the
 * events service whose partition check seedEvents needs. Run `npm run build -w @berth/server`
 * first.
 */
export async function openMigratedDatabase(dataDir: string) {
  const { openDatabase, migrateToLatest } = (await import(
    dist('db/database.js')
  )) as typeof import('../packages/server/src/db/database.ts');
  const { createEventsStore, EventsService } = (await import(
    dist('modules/events/index.js')
  )) as typeof import('../packages/server/src/modules/events/index.ts');
  const db = openDatabase(dataDir);
  await migrateToLatest(db);
  const events = new EventsService(createEventsStore(db), { publish: () => undefined } as never);
  return { db, events };
}
