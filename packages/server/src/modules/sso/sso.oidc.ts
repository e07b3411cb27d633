import type { SsoTestResult } from '@berth/contracts';
import type { Configuration } from 'openid-client';

/** Discovery answers within this, or the provider counts as down (the sign-in page waits on it). */
const DISCOVERY_TIMEOUT_S = 5;
/** The code exchange, the provider's keys and userinfo. */
const REQUEST_TIMEOUT_S = 10;

/** openid-client is loaded on the first sign-on, not at every start of a server without it. */
const oidc = () => import('openid-client');

/** What a provider account proved at the end of a sign-on. */
export type Claims = Record<string, unknown> & { sub: string; iss: string };

/** The client as Berth registered it at the provider. */
export interface OidcClient {
  issuerUrl: string;
  clientId: string;
  /** null: a public client (PKCE only). */
  clientSecret: string | null;
}

/** An issuer over plain http is accepted only on this machine (a test or local provider). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

/** The issuer's URL when Berth may talk to it; throws the reason otherwise. */
export function issuerUrl(text: string): URL {
  const url = new URL(text);
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    throw new Error('the issuer must be an https:// URL');
  }
  return url;
}

/** Discovers the provider's endpoints and keys (one request; the keys load when needed). */
export async function discover(client: OidcClient): Promise<Configuration> {
  const lib = await oidc();
  const server = issuerUrl(client.issuerUrl);
  const auth =
    client.clientSecret === null ? lib.None() : lib.ClientSecretBasic(client.clientSecret);
  const options = {
    timeout: DISCOVERY_TIMEOUT_S,
    // Plain http only to this machine (a provider beside Berth, or the tests' own).
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- deliberate, loopback only
    execute: isLoopbackHttp(server) ? [lib.allowInsecureRequests] : [],
  };
  let config = await lib.discovery(server, client.clientId, undefined, auth, options);
  const methods = config.serverMetadata().token_endpoint_auth_methods_supported;
  // Basic is the default a provider must support; one that lists only post gets post.
  if (
    client.clientSecret !== null &&
    methods !== undefined &&
    !methods.includes('client_secret_basic') &&
    methods.includes('client_secret_post')
  ) {
    const post = lib.ClientSecretPost(client.clientSecret);
    config = await lib.discovery(server, client.clientId, undefined, post, options);
  }
  config.timeout = REQUEST_TIMEOUT_S;
  return config;
}

/** The values one sign-on keeps between its start and the callback. */
export interface FlowChecks {
  state: string;
  nonce: string;
  verifier: string;
}

export async function newChecks(): Promise<FlowChecks> {
  const lib = await oidc();
  return {
    state: lib.randomState(),
    nonce: lib.randomNonce(),
    verifier: lib.randomPKCECodeVerifier(),
  };
}

/** Where the browser goes to sign in at the provider. */
export async function authorizationUrl(
  config: Configuration,
  checks: FlowChecks,
  redirectUri: string,
  scopes: string,
): Promise<string> {
  const lib = await oidc();
  const scope = [...new Set(['openid', ...scopes.split(/\s+/).filter((s) => s !== '')])];
  return lib
    .buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: scope.join(' '),
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await lib.calculatePKCECodeChallenge(checks.verifier),
      code_challenge_method: 'S256',
    })
    .toString();
}

/**
 * Exchanges the callback's code (checking state, nonce and PKCE), verifies the ID token and
 * answers its claims; userinfo's are added when the ID token lacks one Berth reads (many
 * providers put groups and names only there).
 */
export async function finish(
  config: Configuration,
  callbackUrl: URL,
  checks: FlowChecks,
  /** Whether the ID token's claims lack one Berth reads (then userinfo is asked too). */
  lacks: (claims: Claims) => boolean,
): Promise<Claims> {
  const lib = await oidc();
  config.timeout = REQUEST_TIMEOUT_S;
  const tokens = await lib.authorizationCodeGrant(config, callbackUrl, {
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    pkceCodeVerifier: checks.verifier,
    idTokenExpected: true,
  });
  const idToken = tokens.claims();
  if (idToken === undefined) throw new Error('the provider sent no ID token');
  const claims: Claims = { ...idToken, sub: idToken.sub, iss: idToken.iss };
  if (lacks(claims) && config.serverMetadata().userinfo_endpoint !== undefined) {
    const info = await lib.fetchUserInfo(config, tokens.access_token, idToken.sub);
    for (const [name, value] of Object.entries(info)) {
      if (claims[name] === undefined) claims[name] = value;
    }
  }
  return claims;
}

/** The Test button: what discovery finds at an issuer, or the reason it fails. */
export async function probe(issuer: string): Promise<SsoTestResult> {
  try {
    const meta = (
      await discover({ issuerUrl: issuer, clientId: 'berth-test', clientSecret: null })
    ).serverMetadata();
    const pkce = meta.code_challenge_methods_supported;
    return {
      ok: true,
      error: null,
      issuer: meta.issuer,
      authorization_endpoint: meta.authorization_endpoint ?? null,
      token_endpoint: meta.token_endpoint ?? null,
      userinfo_endpoint: meta.userinfo_endpoint ?? null,
      scopes_supported: meta.scopes_supported ?? [],
      claims_supported: meta.claims_supported ?? [],
      pkce_s256: pkce === undefined || pkce.includes('S256'),
    };
  } catch (err) {
    return {
      ok: false,
      error: reasonOf(err),
      issuer: null,
      authorization_endpoint: null,
      token_endpoint: null,
      userinfo_endpoint: null,
      scopes_supported: [],
      claims_supported: [],
      pkce_s256: false,
    };
  }
}

/**
 * The words of a failure, the provider's own first: an error answer's description, then the
 * library's message, then the network's (`fetch failed` says little; its cause says what).
 */
export function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const e = err as Error & { error?: unknown; error_description?: unknown; cause?: unknown };
  if (typeof e.error === 'string') {
    return typeof e.error_description === 'string' ? `${e.error}: ${e.error_description}` : e.error;
  }
  const cause = e.cause instanceof Error ? e.cause : null;
  if (cause !== null && cause.message !== '' && !e.message.includes(cause.message)) {
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
    return `${e.message}: ${cause.message}${inner}`;
  }
  return e.message;
}
