import { createHash, randomBytes } from 'node:crypto';
import {
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_ENROLMENT_REQUIRED,
  type TwoFactorEnrolment,
  type TwoFactorPolicy,
  type TwoFactorStatus,
  type User,
  type UserRole,
} from '@berth/contracts';
import { generateSecret, generateURI, verify } from 'otplib';
import { renderSVG } from 'uqr';
import { AttemptWindow } from '../../platform/attempt-window.js';
import { badRequest, conflict, notFound, tooManyRequests } from '../../platform/http-errors.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { TwoFactorStore } from './two-factor.store.js';

/** The settings key of the roles that must use two-factor. */
export const POLICY_KEY = 'two_factor_policy';
const ISSUER = 'Berth';
/** One 30-second step either side: a phone's clock a little off still signs in. */
const TOLERANCE_S = 30;
/** Wrong codes (or passwords) one user may send to the account routes within the window. */
const WRONG_PER_USER = 5;
const WRONG_WINDOW_MS = 15 * 60 * 1000;
const TOTP_CODE = /^\d{6}$/;

/** What a second factor says of a sign-in: auth's SecondFactorVerdict, without importing it. */
export type Verdict = 'ok' | 'missing' | 'wrong';

/** Why a session may only enrol, as the guard answers it. */
export interface Hold {
  detail: string;
  code: string;
}

export interface TwoFactorDeps {
  store: TwoFactorStore;
  box: SecretBox;
  /** Where the policy is kept: the settings table's key → JSON value rows. */
  settings: {
    readAll(): Promise<Record<string, unknown>>;
    writeMany(values: Record<string, unknown>): Promise<unknown>;
  };
  /** Whether `password` is the user's, counted against wrong-password limits (may throw 429). */
  checkPassword(userId: number, password: string, address: string): Promise<boolean>;
  userExists(userId: number): Promise<boolean>;
  now?: () => number;
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
/** Recovery codes are typed by hand: case, spaces and dashes do not matter. */
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** 16 characters from a 31-letter alphabet (~79 bits), shown as xxxx-xxxx-xxxx-xxxx. */
function recoveryCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return chars.match(/.{4}/g)?.join('-') ?? chars;
}

/**
 * TOTP two-factor sign-in for password users: enrolment with a QR code, ten single-use
 * recovery codes, the check sign-in makes, and the roles that must use it.
 */
export class TwoFactorService {
  private readonly now: () => number;
  private required: ReadonlySet<UserRole> = new Set();
  private readonly wrong: AttemptWindow;

  constructor(private readonly deps: TwoFactorDeps) {
    this.now = deps.now ?? Date.now;
    this.wrong = new AttemptWindow(WRONG_WINDOW_MS, this.now);
  }

  async load(): Promise<void> {
    const stored = (await this.deps.settings.readAll())[POLICY_KEY];
    const roles = (stored as Partial<TwoFactorPolicy> | undefined)?.required_roles;
    if (Array.isArray(roles)) this.required = new Set(roles);
  }

  /** Who signs in with a second factor (Settings → Users shows it). */
  enabledUserIds(): Promise<number[]> {
    return this.deps.store.enabledUserIds();
  }

  policy(): TwoFactorPolicy {
    return { required_roles: [...this.required].sort() };
  }

  async setPolicy(policy: TwoFactorPolicy): Promise<TwoFactorPolicy> {
    const roles = [...new Set(policy.required_roles)].sort();
    await this.deps.settings.writeMany({ [POLICY_KEY]: { required_roles: roles } });
    this.required = new Set(roles);
    return this.policy();
  }

  async status(user: User, method: string): Promise<TwoFactorStatus> {
    const row = await this.deps.store.find(user.id);
    const enabled = row?.enabled_at != null;
    const required = this.required.has(user.role);
    return {
      enabled,
      enabled_at: row?.enabled_at ?? null,
      recovery_codes_left: enabled ? await this.deps.store.recoveryCodesLeft(user.id) : 0,
      required,
      enrolment_required: required && !enabled && method !== 'sso',
    };
  }

  /**
   * Null, or why this session may only enrol: its role requires two-factor, the user has
   * not enrolled, and it signed in with a password (single sign-on's provider owns its
   * second factor). Costs nothing unless some role requires it.
   */
  async hold(user: User, method: string): Promise<Hold | null> {
    if (method === 'sso' || !this.required.has(user.role)) return null;
    if (await this.deps.store.isEnabled(user.id)) return null;
    return {
      detail: `Your role "${user.role}" requires two-factor sign-in; set it up first`,
      code: TWO_FACTOR_ENROLMENT_REQUIRED,
    };
  }

  /** A new pending secret (replacing an earlier pending one) with its URI and QR code. */
  async startEnrolment(user: User): Promise<TwoFactorEnrolment> {
    if (await this.deps.store.isEnabled(user.id)) {
      throw conflict('Two-factor sign-in is already on; turn it off first to enrol again');
    }
    const secret = generateSecret();
    await this.deps.store.startPending(user.id, this.deps.box.seal(secret), this.iso());
    const uri = generateURI({ issuer: ISSUER, label: user.username, secret });
    return { secret, otpauth_uri: uri, qr_svg: renderSVG(uri, { border: 2 }) };
  }

  /** Confirms the pending secret with a code from the app; answers the recovery codes, once. */
  async confirm(user: User, code: string): Promise<string[]> {
    const row = await this.deps.store.find(user.id);
    if (row === undefined || row.enabled_at !== null) {
      throw conflict(
        row === undefined ? 'Start the enrolment first' : 'Two-factor sign-in is already on',
      );
    }
    this.checkLimit(user.id);
    const step = await this.totpStep(row.secret, code, null);
    if (step === null) throw this.wrongCode(user.id);
    const codes = this.newRecoveryCodes();
    if (!(await this.deps.store.enable(user.id, step, codes.map(hashOf), this.iso()))) {
      throw conflict('Two-factor sign-in is already on');
    }
    return codes;
  }

  /** Sign-in's check: a current TOTP code not used before, or an unused recovery code. */
  async verifySignIn(user: User, code: string | undefined): Promise<Verdict> {
    const row = await this.deps.store.find(user.id);
    if (row?.enabled_at == null) return 'ok';
    if (code === undefined || code.trim() === '') return 'missing';
    return (await this.accept(row.user_id, row.secret, row.last_step, code)) ? 'ok' : 'wrong';
  }

  /** Turns two-factor off with the password or a current code; not while the role needs it. */
  async disable(
    user: User,
    proof: { password?: string | undefined; code?: string | undefined },
    address: string,
  ): Promise<void> {
    const row = await this.deps.store.find(user.id);
    if (row?.enabled_at == null) throw conflict('Two-factor sign-in is not on');
    if (this.required.has(user.role)) {
      throw conflict(`Your role "${user.role}" requires two-factor sign-in`);
    }
    if (proof.password !== undefined) {
      if (!(await this.deps.checkPassword(user.id, proof.password, address))) {
        throw badRequest('password: Incorrect password');
      }
    } else if (proof.code !== undefined) {
      this.checkLimit(user.id);
      if (!(await this.accept(user.id, row.secret, row.last_step, proof.code))) {
        throw this.wrongCode(user.id);
      }
    } else {
      throw badRequest('password: Enter your password or a current code');
    }
    await this.deps.store.remove(user.id);
  }

  /** Ten new recovery codes for a current code; the earlier ones stop working. */
  async regenerateRecoveryCodes(user: User, code: string): Promise<string[]> {
    const row = await this.deps.store.find(user.id);
    if (row?.enabled_at == null) throw conflict('Two-factor sign-in is not on');
    this.checkLimit(user.id);
    if (!(await this.accept(user.id, row.secret, row.last_step, code))) {
      throw this.wrongCode(user.id);
    }
    const codes = this.newRecoveryCodes();
    await this.deps.store.replaceRecoveryCodes(user.id, codes.map(hashOf));
    return codes;
  }

  /** An admin's reset for a lost device: the user enrols again (at once, if required). */
  async reset(userId: number): Promise<void> {
    if (!(await this.deps.userExists(userId))) throw notFound('User not found');
    await this.deps.store.remove(userId);
  }

  /** Accepts a code once: a TOTP step moves the last step on, a recovery code is used up. */
  private async accept(
    userId: number,
    sealed: string,
    lastStep: number | null,
    code: string,
  ): Promise<boolean> {
    const compact = code.replace(/\s/g, '');
    if (TOTP_CODE.test(compact)) {
      const step = await this.totpStep(sealed, compact, lastStep);
      return step !== null && (await this.deps.store.acceptStep(userId, step));
    }
    return this.deps.store.useRecoveryCode(userId, hashOf(code), this.iso());
  }

  /** The time step a code belongs to, if it is current and after `lastStep`; else null. */
  private async totpStep(
    sealed: string,
    code: string,
    lastStep: number | null,
  ): Promise<number | null> {
    const token = code.replace(/\s/g, '');
    if (!TOTP_CODE.test(token)) return null;
    try {
      const result = await verify({
        secret: this.deps.box.open(sealed),
        token,
        epoch: Math.floor(this.now() / 1000),
        epochTolerance: TOLERANCE_S,
        ...(lastStep !== null && { afterTimeStep: lastStep }),
      });
      return result.valid && 'timeStep' in result ? result.timeStep : null;
    } catch {
      // A last step ahead of this clock (it was set back) or an unreadable secret: no code fits.
      return null;
    }
  }

  private newRecoveryCodes(): string[] {
    return Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  }

  /** Account routes: a stolen session cannot guess codes at speed either. */
  private checkLimit(userId: number): void {
    if (this.wrong.recent(`#${userId}`).length >= WRONG_PER_USER) {
      throw tooManyRequests('Too many wrong codes. Please try again later.');
    }
  }

  private wrongCode(userId: number) {
    this.wrong.push(`#${userId}`);
    return badRequest('code: Invalid code');
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}

const hashOf = (code: string) => hashCode(normalizeRecovery(code));
