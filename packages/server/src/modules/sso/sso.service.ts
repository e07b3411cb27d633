import {
  SSO_SECRET_MASK,
  type SsoLoginInfo,
  type SsoSettings,
  type SsoSettingsUpdate,
  type SsoTestResult,
  type User,
  type UserRole,
} from '@berth/contracts';
import type { Configuration } from 'openid-client';
import type { AuditService } from '../audit/index.js';
import type { AuthService, ClientInfo } from '../auth/index.js';
import { AttemptWindow } from '../../platform/attempt-window.js';
import { badRequest, forbidden } from '../../platform/http-errors.js';
import type { SecretBox } from '../../platform/secret-box.js';
import {
  authorizationUrl,
  discover,
  finish,
  issuerUrl,
  newChecks,
  probe,
  reasonOf,
  type Claims,
  type FlowChecks,
} from './sso.oidc.js';
import { claimAt, nameOf, ready, roleFromClaims, text, UsedStates } from './sso.rules.js';
import { SsoRefusal, type SsoUserRow, type SsoUsers } from './sso.ports.js';
import type { SsoStore, StoredSsoSettings } from './sso.store.js';

/** A sign-on in progress lives this long: long enough to type a password and a code. */
export const FLOW_TTL_MS = 10 * 60 * 1000;
/** How long the login page may still show why a sign-on failed. */
export const ERROR_TTL_MS = 5 * 60 * 1000;
/** Discovery is reused for the callback this long after a start. */
const CONFIG_REUSE_MS = 15 * 60 * 1000;
/**
 * Failed starts (the provider down) one address may make in the window: each costs a request
 * to the provider and an audit row. Past it the address is told to wait, with neither.
 */
const FAILED_STARTS_PER_ADDRESS = 30;
const NOT_ENABLED = () => new SsoRefusal('Single sign-on is not enabled', null, false);

export interface SsoDeps {
  store: SsoStore;
  users: SsoUsers;
  box: SecretBox;
  auth: AuthService;
  audit: AuditService;
  now?: () => number;
}

/** What the flow cookie carries between the start and the callback (sealed). */
interface Flow extends FlowChecks {
  redirect_uri: string;
  issuer: string;
  client_id: string;
  expires: number;
}

/** Settings → Authentication → Single sign-on, and the OpenID Connect sign-on itself. */
export class SsoService {
  private readonly now: () => number;
  private configs = new Map<string, { config: Configuration; at: number }>();
  private readonly usedStates: UsedStates;
  private readonly starts: AttemptWindow;

  constructor(private readonly deps: SsoDeps) {
    this.now = deps.now ?? Date.now;
    this.starts = new AttemptWindow(FLOW_TTL_MS, this.now);
    this.usedStates = new UsedStates(this.now);
  }

  async view(): Promise<SsoSettings> {
    const { client_secret_sealed, ...rest } = await this.deps.store.read();
    return { ...rest, client_secret: client_secret_sealed === null ? '' : SSO_SECRET_MASK };
  }

  async update(body: SsoSettingsUpdate): Promise<SsoSettings> {
    if (body.issuer_url !== '') {
      try {
        issuerUrl(body.issuer_url);
      } catch {
        throw badRequest('issuer_url: Issuer URL must be https:// (http only on this machine)');
      }
    }
    const before = await this.deps.store.read();
    const { client_secret, ...rest } = body;
    const client_secret_sealed =
      client_secret === SSO_SECRET_MASK
        ? before.client_secret_sealed
        : client_secret === ''
          ? null
          : this.deps.box.seal(client_secret);
    await this.deps.store.write({
      ...rest,
      issuer_url: rest.issuer_url.replace(/\/+$/, ''),
      client_secret_sealed,
    });
    this.configs.clear();
    return this.view();
  }

  /** Who has a provider account linked (Settings → Users shows it). */
  linkedUserIds(): Promise<number[]> {
    return this.deps.store.linkedUserIds();
  }

  test(issuer: string): Promise<SsoTestResult> {
    return probe(issuer);
  }

  /** For the login page: whether to offer the button, and whether the password form is open. */
  async loginInfo(): Promise<Omit<SsoLoginInfo, 'error'>> {
    const s = await this.deps.store.read();
    const enabled = ready(s);
    return {
      enabled,
      name: nameOf(s),
      password_sign_in: !(enabled && s.password_sign_in_disabled),
    };
  }

  /** The port on password sign-in: once it is off, only admins keep a (break-glass) password. */
  async checkPasswordSignIn(user: User): Promise<void> {
    const s = await this.deps.store.read();
    if (ready(s) && s.password_sign_in_disabled && user.role !== 'admin') {
      throw forbidden(`Password sign-in is disabled: use "Sign in with ${nameOf(s)}"`);
    }
  }

  /** The provider's authorization URL and the sealed flow for the cookie. */
  async start(redirectUri: string, address: string): Promise<{ location: string; flow: string }> {
    const s = await this.deps.store.read();
    if (!ready(s)) throw NOT_ENABLED();
    if (this.starts.recent(address).length >= FAILED_STARTS_PER_ADDRESS) {
      throw new SsoRefusal(
        'Too many failed sign-in attempts. Please try again later.',
        null,
        false,
      );
    }
    // Discovery at every start: a provider that is down is said here, on Berth's login page,
    // not by a browser error page at the provider's address.
    const config = await this.config(s, true).catch((err: unknown) => {
      this.starts.push(address);
      throw err;
    });
    const checks = await newChecks();
    const flow: Flow = {
      ...checks,
      redirect_uri: redirectUri,
      issuer: s.issuer_url,
      client_id: s.client_id,
      expires: this.now() + FLOW_TTL_MS,
    };
    return {
      location: await authorizationUrl(config, checks, redirectUri, s.scopes),
      flow: this.deps.box.seal(JSON.stringify(flow)),
    };
  }

  /**
   * Completes a sign-on from the callback's query and the flow cookie: checks, exchanges the
   * code, maps the role and finds, links or creates the user; answers the session token.
   */
  async callback(
    query: string,
    sealedFlow: string | undefined,
    client: ClientInfo,
  ): Promise<{ token: string; username: string; role: UserRole }> {
    const s = await this.deps.store.read();
    if (!ready(s)) throw NOT_ENABLED();
    const flow = this.openFlow(sealedFlow);
    const params = new URLSearchParams(query);
    // The state first, errors included: a crafted link cannot put its words on the login page.
    if (params.get('state') !== flow.state) {
      throw new SsoRefusal(
        'The sign-in answer does not belong to the sign-in this browser started (state). Please try again.',
      );
    }
    const providerError = params.get('error');
    if (providerError !== null) {
      const description = params.get('error_description');
      throw new SsoRefusal(
        `The provider refused the sign-in: ${description === null ? providerError : `${providerError}: ${description}`}`,
      );
    }
    if (this.usedStates.has(flow.state)) {
      throw new SsoRefusal('This sign-in was already used. Please try again.');
    }
    this.usedStates.add(flow.state, flow.expires);
    if (flow.issuer !== s.issuer_url || flow.client_id !== s.client_id) {
      throw new SsoRefusal(
        'The single sign-on settings changed during the sign-in. Please try again.',
      );
    }
    const config = await this.config(s, false);
    const callbackUrl = new URL(flow.redirect_uri);
    callbackUrl.search = params.toString();
    let claims: Claims;
    try {
      const wanted = [s.username_claim, s.role_claim].filter((name) => name !== '');
      claims = await finish(config, callbackUrl, flow, (c) =>
        wanted.some((name) => claimAt(c, name) === undefined),
      );
    } catch (err) {
      throw new SsoRefusal(`The provider's answer was refused: ${reasonOf(err)}`);
    }
    const user = await this.userFor(claims, s);
    const token = await this.deps.auth.openSession(user.id, client, 'sso');
    return { token, username: user.username, role: user.role };
  }

  /** A reason, sealed for the login page's one-time error cookie. */
  sealError(reason: string): string {
    return this.deps.box.seal(JSON.stringify({ reason, expires: this.now() + ERROR_TTL_MS }));
  }

  openError(sealed: string | undefined): string | null {
    if (sealed === undefined) return null;
    try {
      const { reason, expires } = JSON.parse(this.deps.box.open(sealed)) as {
        reason: string;
        expires: number;
      };
      return expires > this.now() ? reason : null;
    } catch {
      return null;
    }
  }

  /** The audit row of a sign-on, success or refusal. */
  record(
    client: ClientInfo,
    result: { actor: string | null; error: string | null; target?: string },
  ) {
    this.deps.audit.record({
      source: 'api',
      action: 'auth.sso.login',
      actor: result.actor,
      target: result.target ?? null,
      address: client.address,
      user_agent: client.userAgent,
      ok: result.error === null,
      error: result.error,
    });
  }

  private async userFor(claims: Claims, s: StoredSsoSettings) {
    const username = (text(claims[s.username_claim]) ?? text(claims.email) ?? claims.sub).slice(
      0,
      100,
    );
    const role = roleFromClaims(claims, s);
    if (role === null) {
      throw new SsoRefusal(
        `Your account at ${nameOf(s)} has no Berth role: ask an admin to add you to a group Berth maps`,
        username,
      );
    }
    const now = new Date(this.now()).toISOString();
    const store = this.deps.store;
    const linkedId = await store.linkedUserId(claims.iss, claims.sub);
    const linked = linkedId === undefined ? undefined : await this.deps.users.byId(linkedId);
    const row = linked ?? (await this.sameName(username, s));
    if (row === undefined) return this.create(claims, s, username, role, now);
    // Every refusal before a write: a refused sign-on links, retires and changes nothing.
    if (row.disabled === 1) throw new SsoRefusal('This Berth account is disabled', row.username);
    if (row.role !== role) await this.checkDemotion(row);
    if (linked === undefined) {
      // A one-time password was the admin's to hand over; signing on replaces it.
      if (row.is_first_login === 1) await this.deps.users.retireOneTimePassword(row.id);
      await store.link(claims.iss, claims.sub, row.id, now);
    } else {
      await store.touchLink(claims.iss, claims.sub, now);
    }
    if (row.role !== role) await this.changeRole(row, role);
    return { id: row.id, username: row.username, role };
  }

  /**
   * A first sign-on's Berth user of the same name (an admin made it for this person), unless
   * it has another provider account already.
   */
  private async sameName(username: string, s: StoredSsoSettings) {
    const named = await this.deps.users.byName(username);
    if (named !== undefined && (await this.deps.store.hasLink(named.id))) {
      throw new SsoRefusal(
        `The Berth user "${username}" is linked to another ${nameOf(s)} account`,
        username,
      );
    }
    return named;
  }

  /** A first sign-on of someone Berth does not know: a new user, when auto-create is on. */
  private async create(
    claims: Claims,
    s: StoredSsoSettings,
    username: string,
    role: UserRole,
    now: string,
  ) {
    if (!s.auto_create) {
      throw new SsoRefusal(
        `No Berth user is named "${username}": ask an admin to create it (new users are not created at sign-in)`,
        username,
      );
    }
    const store = this.deps.store;
    const id = await this.deps.users.createSignedOn({
      username,
      display_name: text(claims.name),
      email: text(claims.email),
      role,
    });
    await store.link(claims.iss, claims.sub, id, now);
    return { id, username, role };
  }

  /** Berth keeps one enabled admin: the provider cannot demote the last one. */
  private async checkDemotion(row: SsoUserRow): Promise<void> {
    if (await this.deps.users.isLastEnabledAdmin(row.id)) {
      throw new SsoRefusal(
        "The provider no longer makes you an admin, but you are Berth's last admin: make another admin first, or sign in with your password",
        row.username,
      );
    }
  }

  /** The claim decides the role at every sign-on (checked by checkDemotion first). */
  private async changeRole(row: SsoUserRow, role: UserRole): Promise<void> {
    await this.deps.users.setRoleFromProvider(row.id, role);
    this.deps.audit.record({
      source: 'api',
      action: 'auth.sso.role',
      actor: row.username,
      target: `${row.username}: ${row.role} → ${role}`,
    });
  }

  private openFlow(sealed: string | undefined): Flow {
    if (sealed === undefined) {
      throw new SsoRefusal(
        'This browser has no sign-in under way (it expired, or was started elsewhere). Please try again.',
      );
    }
    let flow: Flow;
    try {
      flow = JSON.parse(this.deps.box.open(sealed)) as Flow;
    } catch {
      throw new SsoRefusal('The sign-in could not be read. Please try again.');
    }
    if (flow.expires <= this.now()) {
      throw new SsoRefusal('The sign-in took longer than 10 minutes. Please try again.');
    }
    return flow;
  }

  /** Discovery, fresh when asked (a start) or reused from a recent start (a callback). */
  private async config(s: StoredSsoSettings, fresh: boolean): Promise<Configuration> {
    const key = `${s.issuer_url}\n${s.client_id}\n${s.client_secret_sealed ?? ''}`;
    const cached = this.configs.get(key);
    if (!fresh && cached !== undefined && this.now() - cached.at < CONFIG_REUSE_MS) {
      return cached.config;
    }
    try {
      const config = await discover({
        issuerUrl: s.issuer_url,
        clientId: s.client_id,
        clientSecret: this.deps.box.openNullable(s.client_secret_sealed),
      });
      this.configs.clear();
      this.configs.set(key, { config, at: this.now() });
      return config;
    } catch (err) {
      throw new SsoRefusal(`Could not reach ${nameOf(s)} (${s.issuer_url}): ${reasonOf(err)}`);
    }
  }
}

/** A hash of a random secret nobody holds: no password signs in until an admin resets it. */
