import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * The container shell's WebSocket (`/ws/exec?host=…&container=…`): one socket carries one
 * exec session. The browser sends JSON text messages (start, then input and resizes); the
 * server sends the terminal's bytes as binary messages and its own news as JSON text.
 */
export const EXEC_PATH = '/ws/exec';

/** The shells the picker offers; anything else is a custom command. */
export const EXEC_SHELLS = ['/bin/sh', '/bin/bash'] as const;

/** A terminal's size is clamped to these (a resize outside them is clamped, never sent raw). */
export const EXEC_SIZE = { minCols: 2, maxCols: 500, minRows: 1, maxRows: 200 } as const;

/** The largest input message the browser sends; a paste goes in pieces of this size. */
export const EXEC_INPUT_CHUNK = 1024;

/** Clamps a size to EXEC_SIZE; a value that is not a finite number takes the default. */
export function clampTerminalSize(cols: number, rows: number): { cols: number; rows: number } {
  const fit = (n: number, min: number, max: number, fallback: number) =>
    Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
  return {
    cols: fit(cols, EXEC_SIZE.minCols, EXEC_SIZE.maxCols, 80),
    rows: fit(rows, EXEC_SIZE.minRows, EXEC_SIZE.maxRows, 24),
  };
}

// Absurd sizes are clamped (not refused): a browser zoomed far out may measure thousands.
// Functions, so loading the contracts builds no schema (lazySchema's rule).
const size = () => z.number();

/** The command a session runs: a shell of the picker, or a custom command line. */
const commandSchema = () =>
  z
    .string()
    .trim()
    .min(1, 'Required')
    .max(500, 'At most 500 characters')
    .refine((s) => !s.includes('\0'), 'must not contain NUL');

export const execStartSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal('start'),
    /** `/bin/sh`, `/bin/bash` or a custom command, split on spaces (no shell quoting). */
    command: commandSchema(),
    /** The engine's `User`: a name or uid[:gid]; empty runs as the container's user. */
    user: z
      .string()
      .trim()
      .max(64, 'At most 64 characters')
      .regex(/^[A-Za-z0-9_.-]*(:[A-Za-z0-9_.-]+)?$/, 'a user name or uid, optionally :group'),
    cols: size(),
    rows: size(),
  }),
);
export type ExecStart = z.infer<typeof execStartSchema>;

export const execClientMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    execStartSchema,
    z.strictObject({ type: z.literal('input'), data: z.string().max(EXEC_INPUT_CHUNK * 4) }),
    z.strictObject({ type: z.literal('resize'), cols: size(), rows: size() }),
  ]),
);
export type ExecClientMessage = z.infer<typeof execClientMessageSchema>;

/** Why a session ended, as the terminal tells the user. */
export const EXEC_END_REASONS = ['exited', 'idle', 'closed', 'engine', 'server'] as const;
export type ExecEndReason = (typeof EXEC_END_REASONS)[number];

export const execServerMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    /** The exec runs: output follows as binary messages. */
    z.object({
      type: z.literal('started'),
      command: z.array(z.string()),
      user: z.string(),
      idle_minutes: z.number(),
    }),
    /** A resize was outside the bounds: the size the terminal was given instead. */
    z.object({ type: z.literal('resized'), cols: z.number(), rows: z.number() }),
    /** The session is over; `exit_code` is null when it did not end by itself. */
    z.object({
      type: z.literal('ended'),
      reason: z.enum(EXEC_END_REASONS),
      exit_code: z.number().nullable(),
      detail: z.string(),
    }),
    /** The session could not start, or a message was refused; the socket closes after it. */
    z.object({ type: z.literal('error'), detail: z.string() }),
  ]),
);
export type ExecServerMessage = z.infer<typeof execServerMessageSchema>;

/** Close codes of the exec socket beside the standard ones. */
export const EXEC_CLOSE = { normal: 1000, refused: 4403, failed: 4500 } as const;

/** GET /api/exec/recordings: the newest first, `limit` at a time (admins only). */
export const execRecordingsQuerySchema = lazySchema(() =>
  z.object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  }),
);
export type ExecRecordingsQuery = z.infer<typeof execRecordingsQuerySchema>;

/** A stored shell session's typed input, as the list shows it (without the input itself). */
const recordingSummaryShape = () => ({
  id: z.number().int(),
  started_at: z.string(),
  ended_at: z.string(),
  actor: z.string(),
  host_id: z.string(),
  /** Null once the host is gone. */
  host_name: z.string().nullable(),
  container_id: z.string(),
  /** Null once the container is gone from its host. */
  container_name: z.string().nullable(),
  command: z.string(),
  /** Characters of input kept. */
  length: z.number().int(),
  /** The session typed more than a recording keeps; the rest was not stored. */
  truncated: z.boolean(),
});

export const execRecordingSummarySchema = lazySchema(() => z.object(recordingSummaryShape()));
export type ExecRecordingSummary = z.infer<typeof execRecordingSummarySchema>;

export const execRecordingListSchema = lazySchema(() =>
  z.object({
    recordings: z.array(execRecordingSummarySchema),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  }),
);
export type ExecRecordingList = z.infer<typeof execRecordingListSchema>;

/** GET /api/exec/recordings/:id: one recording with what was typed, as the terminal sent it. */
export const execRecordingSchema = lazySchema(() =>
  z.object({ ...recordingSummaryShape(), input: z.string() }),
);
export type ExecRecording = z.infer<typeof execRecordingSchema>;

export const execRecordingParamsSchema = lazySchema(() =>
  z.object({ id: z.coerce.number().int().min(1, 'Recording id must be a positive number') }),
);
