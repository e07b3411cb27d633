import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

/** An account at the test provider: its id is its login and preferred_username. */
export interface ProviderAccount {
  groups: string[];
  email?: string;
}

export interface TestProvider {
  issuer: string;
  /** Accounts by login; changed between sign-ins to move someone between groups. */
  accounts: Map<string, ProviderAccount>;
  close: () => Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider, a certified implementation) on a loopback port: one
 * confidential client with Berth's redirect URI, PKCE required, and its development login
 * and consent forms (every login and password accepted). Claims: preferred_username, email, groups.
 */
export async function startOidcProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}): Promise<TestProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const issuer = `http://127.0.0.1:${address.port}`;
  const accounts = new Map<string, ProviderAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'name'],
      email: ['email'],
      groups: ['groups'],
    },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => {
        const account = accounts.get(id);
        return {
          sub: id,
          preferred_username: id,
          name: id,
          email: account?.email ?? `${id}@example.com`,
          groups: account?.groups ?? [],
        };
      },
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['berth-test-provider'] },
    // Its own signing key and lifetimes, so it does not warn of its development defaults.
    jwks: { keys: [{ ...signingKey(), kid: 'berth-test', use: 'sig', alg: 'RS256' }] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
  });
  // Its development warnings are not the test's output.
  provider.on('server_error', () => undefined);
  const handle = provider.callback();
  server.on('request', (req, res) => {
    Promise.resolve(handle(req, res)).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const signingKey = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

/**
 * A browser in miniature for the server tests: keeps cookies (by name and path, as the
 * ports of one loopback host share them), follows redirects and submits the provider's
 * forms. `trace` lists every URL it requested.
 */
export class CookieBrowser {
  private cookies = new Map<string, { value: string; path: string }>();
  readonly trace: string[] = [];

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  setCookie(name: string, value: string, path = '/'): void {
    this.cookies.set(name, { value, path });
  }

  /** Requests a URL and follows redirects; answers the last response and its URL. */
  async go(
    url: string,
    init: { method?: string; form?: Record<string, string> } = {},
    /** A redirect to a URL starting with this is answered, not followed. */
    stopAt?: string,
  ): Promise<{ url: string; status: number; body: string; location: string | null }> {
    let current = new URL(url);
    let method = init.method ?? 'GET';
    let body: string | undefined =
      init.form === undefined ? undefined : new URLSearchParams(init.form).toString();
    for (let hop = 0; hop < 20; hop++) {
      this.trace.push(current.toString());
      const res = await fetch(current, {
        method,
        redirect: 'manual',
        headers: {
          cookie: this.header(current.pathname),
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(10_000),
      });
      this.store(res.headers.getSetCookie());
      const location = res.headers.get('location');
      const next = location === null ? null : new URL(location, current).toString();
      if (
        next === null ||
        res.status < 300 ||
        res.status >= 400 ||
        next.startsWith(stopAt ?? '\0')
      ) {
        return {
          url: current.toString(),
          status: res.status,
          body: await res.text(),
          location: next,
        };
      }
      await res.body?.cancel();
      current = new URL(next);
      method = 'GET';
      body = undefined;
    }
    throw new Error('too many redirects');
  }

  /** Submits the page's form (its hidden inputs, plus the fields given) and follows on. */
  submit(
    page: { url: string; body: string },
    fields: Record<string, string> = {},
    stopAt?: string,
  ) {
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page.body);
    if (form === null) throw new Error(`no form at ${page.url}: ${page.body.slice(0, 300)}`);
    const hidden: Record<string, string> = {};
    for (const input of (form[2] ?? '').matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
    )) {
      hidden[input[1] ?? ''] = input[2] ?? '';
    }
    const action = new URL((form[1] ?? '').replaceAll('&amp;', '&'), page.url).toString();
    return this.go(action, { method: 'POST', form: { ...hidden, ...fields } }, stopAt);
  }

  private header(path: string): string {
    return [...this.cookies]
      .filter(
        ([, c]) =>
          path === c.path ||
          path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) ||
          c.path === '/',
      )
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attrs] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attrs.some(
        (a) =>
          a.toLowerCase() === 'max-age=0' ||
          (a.toLowerCase().startsWith('expires=') && Date.parse(a.slice(8)) < Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }
}
