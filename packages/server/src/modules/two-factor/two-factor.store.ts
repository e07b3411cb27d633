import type { Generated, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';

/** two_factor (migration 0023): a user's TOTP secret, sealed; enabled once confirmed. */
export interface TwoFactorTable {
  user_id: number;
  secret: string;
  created_at: string;
  /** Null while the enrolment waits for its first code. */
  enabled_at: string | null;
  /** The last time step accepted: that step and earlier ones are refused from then on. */
  last_step: number | null;
}
export type TwoFactorRow = Selectable<TwoFactorTable>;

/** two_factor_recovery_codes: the sha-256 of each code; used ones stay until regenerated. */
export interface RecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: string | null;
}

const TF = 'two_factor';
const CODES = 'two_factor_recovery_codes';

export function createTwoFactorStore(base: Db) {
  const db = base.$extendTables<{ [TF]: TwoFactorTable; [CODES]: RecoveryCodeTable }>();
  return {
    find: (userId: number): Promise<TwoFactorRow | undefined> =>
      db.selectFrom(TF).selectAll().where('user_id', '=', userId).executeTakeFirst(),

    /** Every user who signs in with a second factor, for Settings → Users. */
    enabledUserIds: async (): Promise<number[]> =>
      (await db.selectFrom(TF).select('user_id').where('enabled_at', 'is not', null).execute()).map(
        (row) => row.user_id,
      ),

    isEnabled: async (userId: number): Promise<boolean> =>
      (await db
        .selectFrom(TF)
        .select('user_id')
        .where('user_id', '=', userId)
        .where('enabled_at', 'is not', null)
        .executeTakeFirst()) !== undefined,

    /** A new pending secret, replacing an earlier pending one (never an enabled one). */
    startPending: (userId: number, secret: string, now: string) =>
      db
        .insertInto(TF)
        .values({ user_id: userId, secret, created_at: now, enabled_at: null, last_step: null })
        .onConflict((oc) =>
          oc
            .column('user_id')
            .doUpdateSet({ secret, created_at: now, last_step: null })
            .where(`${TF}.enabled_at`, 'is', null),
        )
        .execute(),

    /** Enables the pending secret with its first code's step and its recovery codes, at once. */
    enable: (userId: number, step: number, codeHashes: string[], now: string) =>
      db.transaction().execute(async (tx) => {
        const r = await tx
          .updateTable(TF)
          .set({ enabled_at: now, last_step: step })
          .where('user_id', '=', userId)
          .where('enabled_at', 'is', null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        await tx.deleteFrom(CODES).where('user_id', '=', userId).execute();
        await tx
          .insertInto(CODES)
          .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
          .execute();
        return true;
      }),

    /**
     * Moves the last accepted step forward, only if it is still behind `step`: of two
     * sign-ins racing with the same code, one wins.
     */
    acceptStep: async (userId: number, step: number): Promise<boolean> => {
      const r = await db
        .updateTable(TF)
        .set({ last_step: step })
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Marks an unused recovery code used; false when there is none (or it was used). */
    useRecoveryCode: async (userId: number, codeHash: string, now: string): Promise<boolean> => {
      const r = await db
        .updateTable(CODES)
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) >= 1;
    },

    recoveryCodesLeft: async (userId: number): Promise<number> =>
      Number(
        (
          await db
            .selectFrom(CODES)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', userId)
            .where('used_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    replaceRecoveryCodes: (userId: number, codeHashes: string[]) =>
      db.transaction().execute(async (tx) => {
        await tx.deleteFrom(CODES).where('user_id', '=', userId).execute();
        await tx
          .insertInto(CODES)
          .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
          .execute();
      }),

    /** Turns two-factor off: the secret and every recovery code go. */
    remove: (userId: number) =>
      db.transaction().execute(async (tx) => {
        await tx.deleteFrom(CODES).where('user_id', '=', userId).execute();
        const r = await tx.deleteFrom(TF).where('user_id', '=', userId).executeTakeFirst();
        return Number(r.numDeletedRows) > 0;
      }),
  };
}

export type TwoFactorStore = ReturnType<typeof createTwoFactorStore>;
