import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reusingStatements } from './database.js';

describe('reusingStatements', () => {
  it('gives a query text its compiled statement again, and a fresh one while it is iterated', () => {
    const db = reusingStatements(new SQLite(':memory:'));
    const first = db.prepare('select 1 as one');
    expect(db.prepare('select 1 as one')).toBe(first);
    expect(db.prepare('select 2 as two')).not.toBe(first);

    const counting = db.prepare('select value from json_each(?)');
    const rows = counting.iterate(['[1,2,3]']);
    rows.next(); // the statement is busy until the iteration ends
    const beside = db.prepare('select value from json_each(?)');
    expect(beside).not.toBe(counting);
    expect(beside.all(['[4]'])).toEqual([{ value: 4 }]);
    expect([...rows]).toEqual([{ value: 2 }, { value: 3 }]);
    expect(db.prepare('select value from json_each(?)')).toBe(counting);
    db.close();
  });

  it('answers Kysely queries as before, across a schema change', async () => {
    const kysely = new Kysely<{ t: { id: number; name: string } }>({
      dialect: new SqliteDialect({ database: reusingStatements(new SQLite(':memory:')) }),
    });
    await kysely.schema.createTable('t').addColumn('id', 'integer').execute();
    await kysely
      .insertInto('t')
      .values({ id: 1 } as never)
      .execute();
    const read = () => kysely.selectFrom('t').selectAll().execute();
    expect(await read()).toEqual([{ id: 1 }]);
    await kysely.schema
      .alterTable('t')
      .addColumn('name', 'text', (c) => c.defaultTo('x'))
      .execute();
    expect(await read()).toEqual([{ id: 1, name: 'x' }]);
    await kysely.destroy();
  });
});
