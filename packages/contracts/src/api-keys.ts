import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * What an API key may do. `read` lists and reads; `operate` adds container actions, batch
 * jobs, updates and alert actions; `admin` adds every setting, but never managing keys or the
 * password, which take a signed-in session.
 */
export const API_KEY_SCOPES = ['read', 'operate', 'admin'] as const;
export const apiKeyScopeSchema = lazySchema(() => z.enum(API_KEY_SCOPES));
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every key starts with this, so a leaked one is recognisable (and secret scanners find it). */
export const API_KEY_PREFIX = 'berth_';
/** How many keys may exist at once: a list that a person reads, never a growing table. */
export const MAX_API_KEYS = 100;

/** A key as listed: never the key itself, only its first characters to recognise it by. */
export const apiKeySchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    scope: apiKeyScopeSchema,
    /** The key's first characters (`berth_ab12…`), enough to tell keys apart. */
    prefix: z.string(),
    created_by: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    expires_at: z.string().nullable(),
  }),
);
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeysResponseSchema = lazySchema(() => z.object({ keys: z.array(apiKeySchema) }));
export type ApiKeysResponse = z.infer<typeof apiKeysResponseSchema>;

export const createApiKeyRequestSchema = lazySchema(() =>
  z.strictObject({
    name: z.string().trim().min(1, 'Name is required').max(100, 'Name is too long'),
    scope: apiKeyScopeSchema,
    /** ISO time after which the key is refused; null or absent: it never expires. */
    expires_at: z.iso
      .datetime({ offset: true, message: 'Expiry must be an ISO date and time' })
      .nullable()
      .optional(),
  }),
);
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** The answer to a create: the only time the key itself is ever sent. */
export const createdApiKeySchema = lazySchema(() => apiKeySchema.extend({ key: z.string() }));
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyParamsSchema = lazySchema(() =>
  z.strictObject({ id: z.coerce.number().int().positive() }),
);
