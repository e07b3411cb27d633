// Before any schema: zod's CSP setting in a browser (a module may be loaded without index.ts).
import './browser-csp.js';
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { userRoleSchema } from './users.js';

export const MIN_PASSWORD_LENGTH = 8;

/** The signed-in user as the API returns it; never carries the password hash. */
export const userSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    username: z.string(),
    display_name: z.string().nullable(),
    is_first_login: z.boolean(),
    /** Added for multi-user Berth: what the user may do (clients that predate it ignore it). */
    role: userRoleSchema,
    /** Added with host scopes: the host tags the user is limited to; empty for every host. */
    host_tags: z.array(z.string()),
  }),
);
export type User = z.infer<typeof userSchema>;

export const loginRequestSchema = lazySchema(() =>
  z.strictObject({
    username: z.string().trim().min(1, 'Required').max(100),
    password: z.string().min(1, 'Required').max(1024),
    /**
     * Optional, for users with two-factor sign-in: a current authenticator code or a recovery
     * code. Without it such a user's right password answers 401 with `code:
     * "second_factor_required"`; clients that predate it never send it.
     */
    second_factor_code: z.string().trim().min(1, 'Required').max(64).optional(),
  }),
);
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = lazySchema(() => z.object({ user: userSchema }));
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const changePasswordRequestSchema = lazySchema(() =>
  z.strictObject({
    current_password: z.string().min(1, 'Required').max(1024),
    new_password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024),
  }),
);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const updateProfileRequestSchema = lazySchema(() =>
  z.strictObject({
    username: z.string().trim().min(1, 'Username is required').max(100),
    display_name: z.string().trim().max(100).nullable().optional(),
  }),
);
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;
