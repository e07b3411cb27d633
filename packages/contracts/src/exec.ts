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
