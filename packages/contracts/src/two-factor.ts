import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { userRoleSchema } from './users.js';

/** How many recovery codes a user gets at once; each works a single time. */
export const RECOVERY_CODE_COUNT = 10;

/** The guard's 403 code while a user whose role requires two-factor has not enrolled. */
export const TWO_FACTOR_ENROLMENT_REQUIRED = 'two_factor_enrolment_required';

/** The signed-in user's two-factor sign-in, as Settings → Security shows it. */
export const twoFactorStatusSchema = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    enabled_at: z.string().nullable(),
    /** Recovery codes not used yet. */
    recovery_codes_left: z.number().int(),
    /** The user's role must use two-factor (Settings → Authentication). */
    required: z.boolean(),
    /**
     * This session may do nothing but enrol: required, not enabled, and signed in with a
     * password (single sign-on leaves the second factor to the provider).
     */
    enrolment_required: z.boolean(),
  }),
);
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** A pending enrolment: the secret to add to an authenticator app, until it is confirmed. */
export const twoFactorEnrolmentSchema = lazySchema(() =>
  z.object({
    /** Base32, for typing into an app that cannot scan. */
    secret: z.string(),
    otpauth_uri: z.string(),
    /** The otpauth URI as a QR code, an SVG document. */
    qr_svg: z.string(),
  }),
);
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolmentSchema>;

const code = () => z.string().trim().min(1, 'Required').max(64);

export const twoFactorCodeRequestSchema = lazySchema(() => z.strictObject({ code: code() }));
export type TwoFactorCodeRequest = z.infer<typeof twoFactorCodeRequestSchema>;

/** Turning two-factor off takes the password or a current code (either one). */
export const disableTwoFactorRequestSchema = lazySchema(() =>
  z.strictObject({
    password: z.string().min(1, 'Required').max(1024).optional(),
    code: code().optional(),
  }),
);
export type DisableTwoFactorRequest = z.infer<typeof disableTwoFactorRequestSchema>;

/** Shown once, when made: only their hashes are kept. */
export const recoveryCodesSchema = lazySchema(() =>
  z.object({ recovery_codes: z.array(z.string()) }),
);
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** Settings → Authentication: the roles whose password users must use two-factor. */
export const twoFactorPolicySchema = lazySchema(() =>
  z.strictObject({ required_roles: z.array(userRoleSchema).max(3) }),
);
export type TwoFactorPolicy = z.infer<typeof twoFactorPolicySchema>;
