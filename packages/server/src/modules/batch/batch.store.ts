import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { BatchItemsTable, BatchJobsTable } from '../../db/schema.js';

export type BatchJobRow = Selectable<BatchJobsTable>;
export type BatchItemRow = Selectable<BatchItemsTable>;

/** Batch jobs and items as stored. */
export function createBatchStore(db: Db) {
  return {
    async insert(job: BatchJobRow, items: BatchItemRow[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('batch_jobs').values(job).execute();
        for (let i = 0; i < items.length; i += 200)
          await trx
            .insertInto('batch_items')
            .values(items.slice(i, i + 200))
            .execute();
      });
    },

    job: (id: string) =>
      db.selectFrom('batch_jobs').selectAll().where('id', '=', id).executeTakeFirst(),

    items: (jobId: string) =>
      db
        .selectFrom('batch_items')
        .selectAll()
        .where('job_id', '=', jobId)
        .orderBy('position')
        .execute(),

    async updateJob(id: string, change: Partial<Pick<BatchJobRow, 'status' | 'completed_at'>>) {
      await db.updateTable('batch_jobs').set(change).where('id', '=', id).execute();
    },

    async updateItem(
      id: string,
      change: Partial<Pick<BatchItemRow, 'status' | 'message' | 'container_name' | 'host_name'>>,
    ) {
      await db.updateTable('batch_items').set(change).where('id', '=', id).execute();
    },

    /**
     * Deletes at most `limit` rows of finished jobs created before `cutoff`: their items
     * first, then the jobs once they have none, so no chunk cascades into a large delete.
     */
    async pruneOlderThan(cutoff: string, limit: number): Promise<number> {
      const oldJobs = db
        .selectFrom('batch_jobs')
        .select('id')
        .where('created_at', '<', cutoff)
        .where('status', 'not in', ['queued', 'running']);
      const items = await db
        .deleteFrom('batch_items')
        .where('id', 'in', (eb) =>
          eb.selectFrom('batch_items').select('id').where('job_id', 'in', oldJobs).limit(limit),
        )
        .executeTakeFirst();
      const removed = Number(items.numDeletedRows);
      if (removed > 0) return removed;
      const jobs = await db
        .deleteFrom('batch_jobs')
        .where('id', 'in', oldJobs.limit(limit))
        .executeTakeFirst();
      return Number(jobs.numDeletedRows);
    },

    /** Jobs a stopped server left unfinished. */
    unfinished: () =>
      db
        .selectFrom('batch_jobs')
        .selectAll()
        .where('status', 'in', ['queued', 'running'])
        .execute(),
  };
}
export type BatchStore = ReturnType<typeof createBatchStore>;
