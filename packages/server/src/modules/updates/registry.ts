/**
 * A client for the Docker Registry HTTP API v2: tag lists and manifest digests, with the
 * `WWW-Authenticate` bearer-token flow (Docker Hub, GHCR, Quay, ...) and basic auth.
 * Every request has a deadline and a size cap; an answer that is not what the API promises
 * is an error with a message an operator can act on, never a crash or a guess.
 */

export interface ImageRef {
  /** As the engine names it: `docker.io`, `ghcr.io`, `127.0.0.1:25000`. */
  registry: string;
  /** `library/nginx`, `user/app`. */
  repository: string;
  tag: string;
  digest: string | null;
}

export interface Credentials {
  username: string;
  password: string;
}

export interface Platform {
  os: string;
  architecture: string;
  variant?: string | undefined;
}

export interface ManifestInfo {
  /** The digest the tag points at (a manifest list's own digest when it is one). */
  digest: string;
  /** The image config digest for the platform (the engine's image id), when resolved. */
  configDigest: string | null;
  /** OCI labels are in the config, which we do not fetch; annotations of the manifest. */
  annotations: Record<string, string>;
}

export class RegistryError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

const DOCKER_HUB = 'docker.io';
const MANIFEST_ACCEPT = [
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
].join(', ');
const LIST_TYPES = new Set([
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.index.v1+json',
]);

/** `nginx` → docker.io/library/nginx:latest; `host:5000/a/b:1@sha256:..` as written. */
export function parseImageRef(ref: string): ImageRef {
  let rest = ref.trim();
  let digest: string | null = null;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag = 'latest';
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const slash = rest.indexOf('/');
  const first = slash < 0 ? '' : rest.slice(0, slash);
  let registry = DOCKER_HUB;
  let repository = rest;
  if (slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    registry = first;
    repository = rest.slice(slash + 1);
  }
  if (registry === 'index.docker.io' || registry === 'registry-1.docker.io') registry = DOCKER_HUB;
  if (registry === DOCKER_HUB && !repository.includes('/')) repository = `library/${repository}`;
  return { registry, repository: repository.toLowerCase(), tag, digest };
}

/** The reference the engine would show for `repo:tag` (Docker Hub without its prefixes). */
export function formatRef(ref: ImageRef, tag: string): string {
  if (ref.registry === DOCKER_HUB) {
    const repo = ref.repository.startsWith('library/') ? ref.repository.slice(8) : ref.repository;
    return `${repo}:${tag}`;
  }
  return `${ref.registry}/${ref.repository}:${tag}`;
}

/** Loopback registries speak plain http (the engine trusts them without TLS too). */
export function registryBase(registry: string): string {
  if (registry === DOCKER_HUB) return 'https://registry-1.docker.io';
  const host = registry.replace(/:\d+$/, '');
  const loopback = host === 'localhost' || /^127\./.test(host) || host === '[::1]';
  return `${loopback ? 'http' : 'https'}://${registry}`;
}

/** Normalises what a user types as a registry URL to the name images use. */
export function registryKey(url: string): string {
  const host = url
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/.*$/, '')
    .toLowerCase();
  return host === 'index.docker.io' || host === 'registry-1.docker.io' || host === 'hub.docker.com'
    ? DOCKER_HUB
    : host;
}

/** `Bearer realm="x",service="y",scope="z"` → { scheme, params }. */
export function parseChallenge(header: string): { scheme: string; params: Record<string, string> } {
  const m = /^\s*(\w+)\s*(.*)$/.exec(header);
  const params: Record<string, string> = {};
  if (m === null) return { scheme: '', params };
  const re = /(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (let p = re.exec(m[2] ?? ''); p !== null; p = re.exec(m[2] ?? '')) {
    params[(p[1] ?? '').toLowerCase()] = p[2] ?? p[3] ?? '';
  }
  return { scheme: (m[1] ?? '').toLowerCase(), params };
}

export interface RegistryClientOptions {
  credentials?: (registry: string) => Promise<Credentials | null>;
  timeoutMs?: number;
  /** Largest JSON answer read (tag lists, manifests, tokens). */
  maxBytes?: number;
  /** Most tag-list pages followed. */
  maxPages?: number;
  fetch?: typeof fetch;
}

interface Token {
  value: string;
  expiresAt: number;
}

/**
 * One client per check run or long-lived: tokens are cached per registry and scope until
 * they expire; results are not (the caller caches per run).
 */
export class RegistryClient {
  private readonly tokens = new Map<string, Token>();
  /** Registries that answered with a Basic challenge. */
  private readonly basic = new Set<string>();
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxPages: number;
  private readonly doFetch: typeof fetch;
  /** Requests made, for the benchmark and the tests. */
  requests = 0;

  constructor(private readonly options: RegistryClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
    this.maxPages = options.maxPages ?? 20;
    this.doFetch = options.fetch ?? fetch;
  }

  /** Every tag of the repository (following `Link` pages up to the page cap). */
  async listTags(ref: ImageRef): Promise<string[]> {
    const tags: string[] = [];
    let path: string | null = `/v2/${ref.repository}/tags/list?n=1000`;
    for (let page = 0; path !== null && page < this.maxPages; page++) {
      const res = await this.request(ref, path, 'application/json');
      const body = (await this.readJson(res)) as { tags?: unknown };
      if (body.tags !== null && body.tags !== undefined && !Array.isArray(body.tags))
        throw new RegistryError('Registry answered a tag list that is not a list');
      for (const t of (body.tags ?? []) as unknown[]) if (typeof t === 'string') tags.push(t);
      const link = res.headers.get('link');
      const next = link === null ? null : /<([^>]+)>\s*;\s*rel="?next"?/.exec(link)?.[1];
      path = next === undefined || next === null ? null : next.replace(/^https?:\/\/[^/]+/, '');
    }
    return tags;
  }

  /**
   * The digest `tag` points at, and the config digest for `platform` (a manifest list is
   * resolved to the platform's entry, which costs one more request).
   */
  async manifest(ref: ImageRef, tag: string, platform: Platform | null): Promise<ManifestInfo> {
    const res = await this.request(ref, `/v2/${ref.repository}/manifests/${tag}`, MANIFEST_ACCEPT);
    const body = (await this.readJson(res)) as {
      mediaType?: string;
      manifests?: { digest?: string; platform?: Platform }[];
      config?: { digest?: string };
      annotations?: Record<string, string>;
    };
    const digest = res.headers.get('docker-content-digest');
    if (digest === null || !/^sha256:[0-9a-f]{64}$/.test(digest))
      throw new RegistryError(`Registry answered ${tag} without a content digest`);
    const type = body.mediaType ?? res.headers.get('content-type') ?? '';
    if (LIST_TYPES.has(type) || Array.isArray(body.manifests)) {
      const entry = platform === null ? undefined : pickPlatform(body.manifests ?? [], platform);
      let configDigest: string | null = null;
      if (entry?.digest !== undefined) {
        const sub = await this.request(
          ref,
          `/v2/${ref.repository}/manifests/${entry.digest}`,
          MANIFEST_ACCEPT,
        );
        const subBody = (await this.readJson(sub)) as { config?: { digest?: string } };
        configDigest = subBody.config?.digest ?? null;
      }
      return { digest, configDigest, annotations: body.annotations ?? {} };
    }
    return {
      digest,
      configDigest: body.config?.digest ?? null,
      annotations: body.annotations ?? {},
    };
  }

  /** A GET with the registry's auth flow: anonymous first, then what the challenge asks. */
  private async request(ref: ImageRef, path: string, accept: string): Promise<Response> {
    const base = registryBase(ref.registry);
    const scopeKey = `${ref.registry}|repository:${ref.repository}:pull`;
    const headers: Record<string, string> = { Accept: accept };
    const auth = await this.authHeader(ref.registry, scopeKey);
    if (auth !== null) headers.Authorization = auth;
    let res = await this.fetchOnce(`${base}${path}`, headers);
    if (res.status === 401) {
      const challenge = res.headers.get('www-authenticate');
      await res.body?.cancel();
      if (challenge === null) throw new RegistryError('Registry refused access (401)', 401);
      const { scheme, params } = parseChallenge(challenge);
      if (scheme === 'bearer') {
        const token = await this.fetchToken(ref, params);
        this.tokens.set(scopeKey, token);
        headers.Authorization = `Bearer ${token.value}`;
      } else if (scheme === 'basic') {
        const creds = await this.credentialsFor(ref.registry);
        if (creds === null)
          throw new RegistryError(`Registry ${ref.registry} needs credentials`, 401);
        this.basic.add(ref.registry);
        headers.Authorization = basicAuth(creds);
      } else {
        throw new RegistryError(`Registry asked for unsupported auth ${scheme}`, 401);
      }
      res = await this.fetchOnce(`${base}${path}`, headers);
    }
    if (res.ok) return res;
    await res.body?.cancel();
    const what = path.includes('/tags/') ? 'tags' : 'manifest';
    if (res.status === 401 || res.status === 403)
      throw new RegistryError(
        `Registry ${ref.registry} refused the ${what} of ${ref.repository} (${res.status}): check the credentials`,
        res.status,
      );
    if (res.status === 404)
      throw new RegistryError(`${ref.repository} ${what} not found on ${ref.registry}`, 404);
    if (res.status === 429)
      throw new RegistryError(`Registry ${ref.registry} rate limit reached`, 429);
    throw new RegistryError(`Registry ${ref.registry} answered ${res.status}`, res.status);
  }

  private async authHeader(registry: string, scopeKey: string): Promise<string | null> {
    const token = this.tokens.get(scopeKey);
    if (token !== undefined && token.expiresAt > Date.now()) return `Bearer ${token.value}`;
    if (this.basic.has(registry)) {
      const creds = await this.credentialsFor(registry);
      if (creds !== null) return basicAuth(creds);
    }
    return null;
  }

  private async fetchToken(ref: ImageRef, params: Record<string, string>): Promise<Token> {
    const realm = params.realm;
    if (realm === undefined || !/^https?:\/\//.test(realm))
      throw new RegistryError(`Registry ${ref.registry} sent a token challenge without a realm`);
    const url = new URL(realm);
    if (params.service !== undefined) url.searchParams.set('service', params.service);
    url.searchParams.set('scope', params.scope ?? `repository:${ref.repository}:pull`);
    const creds = await this.credentialsFor(ref.registry);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (creds !== null) headers.Authorization = basicAuth(creds);
    const res = await this.fetchOnce(url.toString(), headers);
    if (!res.ok) {
      await res.body?.cancel();
      throw new RegistryError(
        `Token server of ${ref.registry} refused (${res.status})${creds === null ? '' : ': check the credentials'}`,
        res.status,
      );
    }
    const body = (await this.readJson(res)) as {
      token?: unknown;
      access_token?: unknown;
      expires_in?: unknown;
    };
    const value = typeof body.token === 'string' ? body.token : body.access_token;
    if (typeof value !== 'string' || value === '')
      throw new RegistryError(`Token server of ${ref.registry} answered without a token`);
    const ttl = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 60;
    return { value, expiresAt: Date.now() + Math.max(ttl - 10, 5) * 1000 };
  }

  private async credentialsFor(registry: string): Promise<Credentials | null> {
    return (await this.options.credentials?.(registry)) ?? null;
  }

  private async fetchOnce(url: string, headers: Record<string, string>): Promise<Response> {
    this.requests++;
    try {
      return await this.doFetch(url, {
        headers,
        redirect: 'follow',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new RegistryError(`Registry did not answer within ${this.timeoutMs / 1000} s`);
      const code = e.cause?.code;
      throw new RegistryError(
        `Registry unreachable${code === undefined ? '' : ` (${code})`}: ${new URL(url).host}`,
      );
    }
  }

  /** Reads a JSON answer of at most maxBytes; anything else is a RegistryError. */
  private async readJson(res: Response): Promise<unknown> {
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > this.maxBytes) {
      await res.body?.cancel();
      throw new RegistryError(`Registry answer too large (${declared} bytes)`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const body = res.body as unknown as AsyncIterable<Uint8Array> | null;
    try {
      for await (const value of body ?? []) {
        size += value.byteLength;
        if (size > this.maxBytes)
          throw new RegistryError(`Registry answer larger than ${this.maxBytes} bytes`);
        chunks.push(value);
      }
    } catch (err) {
      if (err instanceof RegistryError) throw err;
      throw new RegistryError(`Registry answer broke off: ${(err as Error).message}`);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new RegistryError('Registry answered something that is not JSON');
    }
  }
}

const basicAuth = (c: Credentials) =>
  `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;

/** The engine's platform entry of a manifest list (variant when both name one). */
function pickPlatform(
  manifests: { digest?: string; platform?: Platform }[],
  want: Platform,
): { digest?: string } | undefined {
  const same = manifests.filter(
    (m) => m.platform?.os === want.os && m.platform.architecture === want.architecture,
  );
  return (
    same.find((m) => want.variant !== undefined && m.platform?.variant === want.variant) ?? same[0]
  );
}

/** The engine's `info` as a registry platform: x86_64 → amd64, aarch64 → arm64. */
export function platformOf(info: { OSType?: string; Architecture?: string }): Platform {
  const arch = (info.Architecture ?? 'amd64').toLowerCase();
  const map: Record<string, Platform> = {
    x86_64: { os: 'linux', architecture: 'amd64' },
    amd64: { os: 'linux', architecture: 'amd64' },
    aarch64: { os: 'linux', architecture: 'arm64', variant: 'v8' },
    arm64: { os: 'linux', architecture: 'arm64', variant: 'v8' },
    armv7l: { os: 'linux', architecture: 'arm', variant: 'v7' },
    armv6l: { os: 'linux', architecture: 'arm', variant: 'v6' },
  };
  const p = map[arch] ?? { os: 'linux', architecture: arch };
  return { ...p, os: (info.OSType ?? 'linux').toLowerCase() };
}
