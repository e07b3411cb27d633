import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

// ---- Single sign-on (OpenID Connect) ---------------------------------------------------------

/** A masked client secret in answers; sent back unchanged, it keeps the stored one. */
export const SSO_SECRET_MASK = '********';

/** What a sign-in gets when none of the role claim's values matches: a role, or a refusal. */
export const SSO_DEFAULT_ROLES = ['refuse', 'viewer', 'operator'] as const;
export type SsoDefaultRole = (typeof SSO_DEFAULT_ROLES)[number];

/** Settings → Authentication → Single sign-on, as answered (the client secret masked). */
export const ssoSettingsSchema = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    /** The button reads "Sign in with <display_name>". */
    display_name: z.string(),
    issuer_url: z.string(),
    client_id: z.string(),
    /** SSO_SECRET_MASK when one is stored, '' when none (a public client). */
    client_secret: z.string(),
    /** Space-separated; `openid` is always asked for. */
    scopes: z.string(),
    /** The claim whose value becomes the Berth username of a new user. */
    username_claim: z.string(),
    /** The claim holding group or role names (a string or a list); '' maps nobody. */
    role_claim: z.string(),
    admin_values: z.array(z.string()),
    operator_values: z.array(z.string()),
    viewer_values: z.array(z.string()),
    default_role: z.enum(SSO_DEFAULT_ROLES),
    /** Off: only accounts already linked, or Berth users of the same name, may sign in. */
    auto_create: z.boolean(),
    /** On: only admins may still sign in with a password (break-glass). */
    password_sign_in_disabled: z.boolean(),
  }),
);
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

/** The settings and the address to register at the provider as the redirect URI. */
export const ssoSettingsViewSchema = lazySchema(() =>
  z.object({ settings: ssoSettingsSchema, redirect_uri: z.string() }),
);
export type SsoSettingsView = z.infer<typeof ssoSettingsViewSchema>;

/** http(s) with a host, as an issuer identifier must be. */
export const isIssuerUrl = (v: string): boolean => /^https?:\/\/[^\s/?#]+[^\s?#]*$/i.test(v);

const claimValues = lazySchema(() =>
  z
    .array(z.string().trim().min(1, 'Claim values must not be empty').max(200))
    .max(50, 'At most 50 values per role')
    .default([]),
);

export const ssoSettingsUpdateSchema = lazySchema(() =>
  z
    .strictObject({
      enabled: z.boolean(),
      display_name: z.string().trim().max(60, 'Display name is too long').default(''),
      issuer_url: z
        .string()
        .trim()
        .max(500, 'Issuer URL is too long')
        .refine((v) => v === '' || isIssuerUrl(v), 'Issuer URL must be an https:// URL'),
      client_id: z.string().trim().max(300, 'Client ID is too long').default(''),
      client_secret: z.string().max(1000, 'Client secret is too long').default(SSO_SECRET_MASK),
      scopes: z
        .string()
        .trim()
        .max(500, 'Scopes are too long')
        .refine((v) => /^[\x21\x23-\x5b\x5d-\x7e ]*$/.test(v), 'Scopes must be plain words')
        .default('openid profile email'),
      username_claim: z
        .string()
        .trim()
        .min(1, 'Username claim is required')
        .max(100)
        .default('preferred_username'),
      role_claim: z.string().trim().max(100, 'Role claim is too long').default(''),
      admin_values: claimValues,
      operator_values: claimValues,
      viewer_values: claimValues,
      default_role: z.enum(SSO_DEFAULT_ROLES).default('refuse'),
      auto_create: z.boolean().default(true),
      password_sign_in_disabled: z.boolean().default(false),
    })
    .refine((s) => !s.enabled || s.issuer_url !== '', {
      path: ['issuer_url'],
      message: 'Issuer URL is required when single sign-on is on',
    })
    .refine((s) => !s.enabled || s.client_id !== '', {
      path: ['client_id'],
      message: 'Client ID is required when single sign-on is on',
    }),
);
export type SsoSettingsUpdate = z.infer<typeof ssoSettingsUpdateSchema>;

/** The Test button: discovery of an issuer, not yet saved. */
export const ssoTestRequestSchema = lazySchema(() =>
  z.strictObject({
    issuer_url: z
      .string()
      .trim()
      .min(1, 'Issuer URL is required')
      .max(500, 'Issuer URL is too long')
      .refine(isIssuerUrl, 'Issuer URL must be an https:// URL'),
  }),
);
export type SsoTestRequest = z.infer<typeof ssoTestRequestSchema>;

/** What discovery found, or why it failed (the provider's or the network's own words). */
export const ssoTestResultSchema = lazySchema(() =>
  z.object({
    ok: z.boolean(),
    error: z.string().nullable(),
    issuer: z.string().nullable(),
    authorization_endpoint: z.string().nullable(),
    token_endpoint: z.string().nullable(),
    userinfo_endpoint: z.string().nullable(),
    scopes_supported: z.array(z.string()),
    claims_supported: z.array(z.string()),
    /** False when the provider does not list S256 PKCE (Berth always sends it). */
    pkce_s256: z.boolean(),
  }),
);
export type SsoTestResult = z.infer<typeof ssoTestResultSchema>;

/** What the sign-in page needs, before anyone signed in. */
export const ssoLoginInfoSchema = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    /** "Sign in with <name>". */
    name: z.string(),
    /** False: only admins may use the password form (shown behind "Admin sign-in"). */
    password_sign_in: z.boolean(),
    /** Why the last single sign-on in this browser failed, once; null when it did not. */
    error: z.string().nullable(),
  }),
);
export type SsoLoginInfo = z.infer<typeof ssoLoginInfoSchema>;

/** The provider's answer on the callback; other parameters a provider adds are ignored. */
export const ssoCallbackQuerySchema = lazySchema(() =>
  z.looseObject({
    code: z.string().max(4000).optional(),
    state: z.string().max(4000).optional(),
    iss: z.string().max(4000).optional(),
    error: z.string().max(4000).optional(),
    error_description: z.string().max(4000).optional(),
  }),
);
