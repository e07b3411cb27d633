import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-initial.js';

/**
 * Every migration, keyed by name; names sort in the order they apply.
 * Listed in code (not read from a folder) so the build and tests need no file scanning.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
};
