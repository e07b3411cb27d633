import { sql, type Kysely } from 'kysely';

/**
 * A trigram full-text index over the searchable event text, so a substring search reads the
 * index instead of every row. It borrows its text from `events` (external content, no copy)
 * and triggers keep it in step with inserts, deletes and updates. (A contentless table with
 * rowid deletes was tried: its tombstone merges stall for over a second during retention.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create virtual table events_fts using fts5(
    title, message, container_name, host_name,
    content='events', content_rowid='id', tokenize='trigram case_sensitive 0'
  )`.execute(db);
  await sql`create trigger events_fts_insert after insert on events begin
    insert into events_fts(rowid, title, message, container_name, host_name)
    values (new.id, new.title, new.message, new.container_name, new.host_name);
  end`.execute(db);
  await sql`create trigger events_fts_delete after delete on events begin
    insert into events_fts(events_fts, rowid, title, message, container_name, host_name)
    values ('delete', old.id, old.title, old.message, old.container_name, old.host_name);
  end`.execute(db);
  await sql`create trigger events_fts_update after update of title, message, container_name, host_name on events begin
    insert into events_fts(events_fts, rowid, title, message, container_name, host_name)
    values ('delete', old.id, old.title, old.message, old.container_name, old.host_name);
    insert into events_fts(rowid, title, message, container_name, host_name)
    values (new.id, new.title, new.message, new.container_name, new.host_name);
  end`.execute(db);
  await sql`insert into events_fts(events_fts) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['events_fts_insert', 'events_fts_delete', 'events_fts_update'])
    await sql`drop trigger if exists ${sql.ref(trigger)}`.execute(db);
  await sql`drop table if exists events_fts`.execute(db);
}
