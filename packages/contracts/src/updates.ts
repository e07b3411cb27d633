import { z } from 'zod';
import { floatingTagModeSchema } from './containers.js';
import { lazySchema } from './lazy-schema.js';

/** Per-container update policy: null = use the global policies. */
export const updatePolicyValueSchema = lazySchema(() => z.enum(['allow', 'warn', 'block']));
export type UpdatePolicyValue = z.infer<typeof updatePolicyValueSchema>;

export const updateValidationSchema = lazySchema(() =>
  z.object({
    result: z.enum(['block', 'warn']),
    reason: z.string(),
    matched_pattern: z.string().nullable(),
  }),
);
export type UpdateValidation = z.infer<typeof updateValidationSchema>;

/** GET /api/hosts/{h}/containers/{c}/update-status. */
export const updateStatusSchema = lazySchema(() =>
  z.object({
    update_available: z.boolean(),
    last_checked_at: z.string().nullable(),
    current_image: z.string(),
    current_digest: z.string().nullable(),
    latest_image: z.string().nullable(),
    latest_digest: z.string().nullable(),
    floating_tag_mode: floatingTagModeSchema,
    auto_update_enabled: z.boolean(),
    update_policy: updatePolicyValueSchema.nullable(),
    changelog_url: z.string().nullable(),
    changelog_source: z.enum(['manual', 'auto-detected', 'failed']).nullable(),
    registry_page_url: z.string().nullable(),
    registry_page_source: z.enum(['manual', 'auto']).nullable(),
    is_compose_container: z.boolean(),
    skip_compose_enabled: z.boolean(),
    validation_info: updateValidationSchema.nullable(),
    /** Why the last check could not finish (registry down, 401, ...); null when it did. */
    last_error: z.string().nullable(),
    /** A version whose update failed and was rolled back; not offered again. */
    failed_digest: z.string().nullable(),
    /** The image the last update replaced, for Roll back; null when there is none. */
    previous_image: z.string().nullable(),
    /** An update of this container is running now. */
    updating: z.boolean(),
  }),
);
export type UpdateStatus = z.infer<typeof updateStatusSchema>;

const urlField = (example: string) =>
  z
    .string()
    .max(2000)
    .nullable()
    .transform((v, ctx) => {
      const t = v?.trim() ?? '';
      if (t === '') return null;
      // http(s), a host, no spaces: what a browser can open in a new tab.
      if (!/^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i.test(t)) {
        ctx.addIssue({
          code: 'custom',
          message: `Invalid URL format. Please enter a valid URL (e.g., ${example})`,
        });
        return z.NEVER;
      }
      return t;
    });

/** The examples the URL messages show (spec README placeholders). */
export const CHANGELOG_URL_EXAMPLE = 'https://github.com/user/repo/releases';
export const REGISTRY_URL_EXAMPLE = 'https://hub.docker.com/r/user/image';

/** PUT .../auto-update-config: any subset; an empty URL saves null (auto-detect again). */
export const autoUpdateConfigRequestSchema = lazySchema(() =>
  z.strictObject({
    auto_update_enabled: z.boolean().optional(),
    floating_tag_mode: floatingTagModeSchema.optional(),
    changelog_url: urlField(CHANGELOG_URL_EXAMPLE).optional(),
    registry_page_url: urlField(REGISTRY_URL_EXAMPLE).optional(),
  }),
);
export type AutoUpdateConfigRequest = z.input<typeof autoUpdateConfigRequestSchema>;

/** PUT .../update-policy?policy=allow|warn|block (omitted = global). */
export const updatePolicyQuerySchema = lazySchema(() =>
  z.strictObject({
    policy: updatePolicyValueSchema.optional(),
  }),
);

export const executeUpdateQuerySchema = lazySchema(() =>
  z.strictObject({
    force: z.enum(['true', 'false']).optional(),
  }),
);

/** POST .../execute-update. */
export const executeUpdateResponseSchema = lazySchema(() =>
  z.object({
    status: z.enum(['success', 'failed', 'blocked', 'requires_confirmation']),
    validation: z.enum(['allow', 'warn', 'block']),
    reason: z.string().nullable(),
    matched_pattern: z.string().nullable(),
    message: z.string(),
    detail: z.string().nullable(),
    new_container_id: z.string().nullable(),
  }),
);
export type ExecuteUpdateResponse = z.infer<typeof executeUpdateResponseSchema>;

/** POST /api/updates/check-all. */
export const checkAllResponseSchema = lazySchema(() =>
  z.object({
    checked: z.number(),
    total: z.number(),
    updates_found: z.number(),
    errors: z.array(z.string()),
  }),
);
export type CheckAllResponse = z.infer<typeof checkAllResponseSchema>;

export const UPDATE_POLICY_CATEGORIES = [
  'databases',
  'proxies',
  'monitoring',
  'critical',
  'custom',
] as const;
export const updatePolicyCategorySchema = lazySchema(() => z.enum(UPDATE_POLICY_CATEGORIES));
export type UpdatePolicyCategory = z.infer<typeof updatePolicyCategorySchema>;

export const updatePolicyItemSchema = lazySchema(() =>
  z.object({
    id: z.number(),
    pattern: z.string(),
    enabled: z.boolean(),
  }),
);
export type UpdatePolicyItem = z.infer<typeof updatePolicyItemSchema>;

/** GET /api/update-policies. */
export const updatePoliciesResponseSchema = lazySchema(() =>
  z.object({
    categories: z.record(updatePolicyCategorySchema, z.array(updatePolicyItemSchema)),
  }),
);
export type UpdatePoliciesResponse = z.infer<typeof updatePoliciesResponseSchema>;

export const updatePolicyToggleQuerySchema = lazySchema(() =>
  z.strictObject({
    enabled: z.enum(['true', 'false'], { message: 'enabled must be true or false' }),
  }),
);

/** POST /api/update-policies/custom?pattern= ('Please enter a pattern'). */
export const customPatternQuerySchema = lazySchema(() =>
  z.strictObject({
    pattern: z
      .string({ message: 'Please enter a pattern' })
      .trim()
      .min(1, 'Please enter a pattern')
      .max(200, 'Pattern must be at most 200 characters'),
  }),
);

/** Registry credential: the password is write-only. */
export const registryCredentialSchema = lazySchema(() =>
  z.object({
    id: z.number(),
    registry_url: z.string(),
    username: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);
export type RegistryCredential = z.infer<typeof registryCredentialSchema>;

export const registryCredentialCreateSchema = lazySchema(() =>
  z.strictObject({
    registry_url: z.string().trim().min(1, 'Registry URL is required').max(500),
    username: z.string().trim().min(1, 'Username is required').max(200),
    password: z.string().min(1, 'Password is required').max(4000),
  }),
);
export type RegistryCredentialCreate = z.infer<typeof registryCredentialCreateSchema>;

/** PUT: URL fixed; a blank or missing password keeps the stored one. */
export const registryCredentialUpdateSchema = lazySchema(() =>
  z.strictObject({
    username: z.string().trim().min(1, 'Username is required').max(200).optional(),
    password: z.string().max(4000).optional(),
  }),
);
export type RegistryCredentialUpdate = z.infer<typeof registryCredentialUpdateSchema>;

/** DELETE /api/registry-credentials/:id answers what it did. */
export const registryCredentialDeletedSchema = lazySchema(() => z.object({ message: z.string() }));
