import { z } from 'zod';
import { hostTagSchema, MAX_HOST_TAGS } from './hosts.js';
import { lazySchema } from './lazy-schema.js';

/**
 * What a user may do. `admin`: everything; `operator`: reads plus container, batch, update and
 * alert actions (no settings, hosts, rules, channels or users); `viewer`: reads only. Every
 * role manages its own password, profile and API keys.
 */
export const USER_ROLES = ['admin', 'operator', 'viewer'] as const;
export const userRoleSchema = lazySchema(() => z.enum(USER_ROLES));
export type UserRole = (typeof USER_ROLES)[number];

/** A user as Settings → Users lists them: never a password or its hash. */
export const managedUserSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    username: z.string(),
    display_name: z.string().nullable(),
    email: z.string().nullable(),
    role: userRoleSchema,
    disabled: z.boolean(),
    /** True until the user replaced a one-time password. */
    is_first_login: z.boolean(),
    /** The host tags the user is limited to (a host with one of them); empty = every host. */
    host_tags: z.array(z.string()),
    created_at: z.string(),
    /** The user signs in with a second factor (an authenticator app). */
    two_factor: z.boolean(),
    /** A single sign-on provider account is linked to the user. */
    sso_linked: z.boolean(),
  }),
);
export type ManagedUser = z.infer<typeof managedUserSchema>;

export const usersResponseSchema = lazySchema(() =>
  z.object({ users: z.array(managedUserSchema) }),
);
export type UsersResponse = z.infer<typeof usersResponseSchema>;

const displayName = () => z.string().trim().max(100, 'Display name is too long').nullable();
const email = () =>
  z
    .string()
    .trim()
    .max(254, 'Email is too long')
    .refine((v) => v === '' || /^[^\s@]+@[^\s@]+$/.test(v), 'Email must look like name@domain')
    .nullable();

/**
 * A user's host scope, normalised like a host's tags: trimmed, lowercased, unique, at most
 * MAX_HOST_TAGS. Admins always reach every host, so the server refuses tags on an admin.
 */
export const userHostTagsSchema = lazySchema(() =>
  z
    .array(hostTagSchema)
    .max(100, 'Too many tags')
    .transform((tags) => [...new Set(tags)])
    .refine(
      (tags) => tags.length <= MAX_HOST_TAGS,
      `A user can have at most ${MAX_HOST_TAGS} host tags`,
    ),
);

export const createUserRequestSchema = lazySchema(() =>
  z.strictObject({
    username: z.string().trim().min(1, 'Username is required').max(100, 'Username is too long'),
    display_name: displayName().optional(),
    email: email().optional(),
    role: userRoleSchema,
    host_tags: userHostTagsSchema.optional(),
  }),
);
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;

export const updateUserRequestSchema = lazySchema(() =>
  z.strictObject({
    display_name: displayName().optional(),
    email: email().optional(),
    role: userRoleSchema.optional(),
    disabled: z.boolean().optional(),
    host_tags: userHostTagsSchema.optional(),
  }),
);
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

/** A one-time password: sent once (create, reset), to be changed at the next sign-in. */
export const oneTimePasswordSchema = lazySchema(() => z.object({ password: z.string() }));
export type OneTimePassword = z.infer<typeof oneTimePasswordSchema>;

/** The answer to a create: the user and their one-time password, shown once. */
export const createdUserSchema = lazySchema(() =>
  z.object({ user: managedUserSchema, password: z.string() }),
);
export type CreatedUser = z.infer<typeof createdUserSchema>;

export const userParamsSchema = lazySchema(() =>
  z.strictObject({ id: z.coerce.number().int().positive() }),
);
