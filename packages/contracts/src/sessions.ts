import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * A signed-in session as its owner (or an admin) sees it. Only the public id leaves the
 * server: the cookie's token and its hash never do.
 */
export const sessionSchema = lazySchema(() =>
  z.object({
    /** Names the session in the routes that end it. */
    id: z.string(),
    created_at: z.string(),
    last_seen_at: z.string(),
    /** Where it was opened from, as the server saw the address. */
    address: z.string().nullable(),
    user_agent: z.string().nullable(),
    method: z.enum(['password', 'sso']),
    /** The session this request came with. */
    current: z.boolean(),
  }),
);
export type Session = z.infer<typeof sessionSchema>;

/** GET /api/v2/auth/sessions: the caller's own sessions, most recently used first. */
export const sessionsResponseSchema = lazySchema(() =>
  z.object({ sessions: z.array(sessionSchema) }),
);
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

/** A session in the admin's list of every user's sessions. */
export const userSessionSchema = lazySchema(() =>
  sessionSchema.extend({ user_id: z.number().int(), username: z.string() }),
);
export type UserSession = z.infer<typeof userSessionSchema>;

/** GET /api/sessions (admins): every user's sessions, most recently used first. */
export const allSessionsResponseSchema = lazySchema(() =>
  z.object({ sessions: z.array(userSessionSchema) }),
);
export type AllSessionsResponse = z.infer<typeof allSessionsResponseSchema>;

export const sessionParamsSchema = lazySchema(() =>
  z.object({ id: z.string().trim().min(1, 'Required').max(64) }),
);

/** POST /api/v2/auth/sessions/end-others: how many sessions were ended. */
export const endedSessionsSchema = lazySchema(() => z.object({ ended: z.number().int() }));
export type EndedSessions = z.infer<typeof endedSessionsSchema>;
