import { sql, type Kysely } from 'kysely';

/**
 * The trigram index in partitions, so retention never deletes from an index: deleting from
 * one large index stalled on merging the doclists of trigrams every event shares (ADR 011).
 * Each partition indexes the events from its `first_id` up to the next partition's; inserts go
 * to the newest, and a partition whose events have all gone is dropped whole. A deleted
 * event's entries stay in its partition until then, which is marked `stale` so that counts
 * check its matches against `events`. The existing index becomes the first partition.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table events_search_partitions (
    first_id integer primary key,
    name text not null unique,
    stale integer not null default 0
  )`.execute(db);
  await sql`insert into events_search_partitions (first_id, name) values (0, 'events_fts')`.execute(
    db,
  );
  await sql`drop trigger events_fts_delete`.execute(db);
  // The log is a record: its text is never edited (the index could not follow an edit to
  // the right partition), and an attempt fails loudly instead of leaving the index wrong.
  await sql`drop trigger events_fts_update`.execute(db);
  await sql`create trigger events_text_unchanged before update of title, message, container_name, host_name on events begin
    select raise(abort, 'the text of a recorded event cannot change');
  end`.execute(db);
  await sql`create trigger events_search_stale after delete on events begin
    update events_search_partitions set stale = 1
    where stale = 0 and first_id =
      (select max(first_id) from events_search_partitions where first_id <= old.id);
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists events_search_stale`.execute(db);
  await sql`drop trigger if exists events_text_unchanged`.execute(db);
  const { rows } = await sql<{
    name: string;
  }>`select name from events_search_partitions where name != 'events_fts'`.execute(db);
  for (const { name } of rows) await sql`drop table if exists ${sql.table(name)}`.execute(db);
  await sql`drop table events_search_partitions`.execute(db);
  await sql`drop trigger if exists events_fts_insert`.execute(db);
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
