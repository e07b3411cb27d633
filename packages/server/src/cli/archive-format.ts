import { z } from 'zod';
import { DATABASE_FILE } from '../db/database.js';
import { migrations } from '../db/migrations/index.js';
import { KEY_FILE } from '../platform/secret-box.js';
import { RestoreRefused } from './cli-errors.js';

/** What a backup archive holds, in this order: the manifest first, then the two files. */
export const MANIFEST_FILE = 'berth-backup.json';
export const ARCHIVED_FILES = [DATABASE_FILE, KEY_FILE] as const;
export const ARCHIVE_FORMAT = 'berth-backup';
export const ARCHIVE_FORMAT_VERSION = 1;
/** A manifest is a few hundred bytes; anything much larger is not one. */
export const MANIFEST_MAX_BYTES = 64 * 1024;

const fileSchema = z.object({
  name: z.enum(ARCHIVED_FILES),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  format_version: z.number().int().positive(),
  /** The Berth that wrote the archive. */
  berth_version: z.string(),
  /** The newest migration applied to the archived database. */
  schema: z.string().min(1),
  created_at: z.iso.datetime(),
  files: z.array(fileSchema),
});
export type Manifest = z.infer<typeof manifestSchema>;
export type ArchivedFile = z.infer<typeof fileSchema>;

/** The newest migration this Berth knows (migration names sort in the order they apply). */
export const latestKnownSchema = (): string => Object.keys(migrations).sort().at(-1) ?? '';

/** Refuses a schema this Berth cannot run: one it does not know, past the newest it knows. */
export function checkSchemaKnown(schema: string): void {
  if (schema in migrations) return;
  const latest = latestKnownSchema();
  if (schema > latest) {
    throw new RestoreRefused(
      `made by a newer Berth: schema ${schema}, this Berth knows up to ${latest}`,
    );
  }
  throw new RestoreRefused(`its database has schema ${schema}, which this Berth does not know`);
}

/** The manifest's JSON text, checked: a Berth backup, a format this Berth reads, complete. */
export function parseManifest(text: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RestoreRefused('not a Berth backup');
  }
  const head = z
    .object({ format: z.literal(ARCHIVE_FORMAT), format_version: z.unknown() })
    .safeParse(json);
  if (!head.success) throw new RestoreRefused('not a Berth backup');
  const version = head.data.format_version;
  if (typeof version === 'number' && version > ARCHIVE_FORMAT_VERSION) {
    throw new RestoreRefused(
      `made by a newer Berth: archive format ${version}, this Berth reads up to ${ARCHIVE_FORMAT_VERSION}`,
    );
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw new RestoreRefused('damaged (its manifest is not valid)');
  const manifest = parsed.data;
  const names = manifest.files.map((f) => f.name).sort();
  if (names.join() !== [...ARCHIVED_FILES].sort().join()) {
    throw new RestoreRefused('damaged (its manifest does not list the database and the key)');
  }
  checkSchemaKnown(manifest.schema);
  return manifest;
}
