/**
 * Where a host's engine listens, read from its URL the way Berth connects to it: a unix
 * socket, or a host and port reached over http (`tcp://`, `http://`) or https (`https://`,
 * `tcp://` with TLS certificates).
 */
export type EngineAddress =
  | { kind: 'unix'; path: string }
  | { kind: 'network'; scheme: 'tcp' | 'http' | 'https'; host: string; port: number | null };

/** scheme://host[:port][/], the host a name, an IPv4 address or a bracketed IPv6 one. */
const NETWORK = /^(tcp|http|https):\/\/([^/:@?#\s[\]]+|\[[0-9a-fA-F:.]+\])(?::(\d*))?\/?$/;

export const ENGINE_URL_FORM = 'URL must be scheme://host or scheme://host:port, with no path';
export const ENGINE_PORT_RANGE = 'URL port must be between 1 and 65535';
export const ENGINE_SOCKET_PATH =
  'URL must give the absolute path of the socket (unix:///var/run/docker.sock)';

/** The engine address a host URL names, or the message saying why it names none. */
export function parseEngineUrl(raw: string): EngineAddress | { error: string } {
  const url = raw.trim();
  if (url.startsWith('unix://')) {
    const path = url.slice('unix://'.length);
    return path.startsWith('/') ? { kind: 'unix', path } : { error: ENGINE_SOCKET_PATH };
  }
  const match = NETWORK.exec(url);
  if (match === null) return { error: ENGINE_URL_FORM };
  const [, scheme = 'tcp', host = '', port] = match;
  if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535))
    return { error: ENGINE_PORT_RANGE };
  return {
    kind: 'network',
    scheme: scheme as 'tcp' | 'http' | 'https',
    host: host.replace(/^\[|\]$/g, ''),
    port: port === undefined ? null : Number(port),
  };
}

/** The port Berth connects to: the URL's, or the default of its scheme (and TLS). */
export function enginePort(
  address: Extract<EngineAddress, { kind: 'network' }>,
  tls: boolean,
): number {
  if (address.port !== null) return address.port;
  if (address.scheme === 'https') return 443;
  if (address.scheme === 'http') return 80;
  return tls ? 2376 : 2375;
}

/** `/var/run//docker.sock/`, `/var/./run/docker.sock` → `/var/run/docker.sock`. */
export function normalSocketPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/**
 * One text per engine, the same for every spelling of its address: `tcp://` and `http://`
 * (and `https://` or TLS: one port is one engine), a default port written out or left off,
 * host names in any case, socket paths with doubled slashes or dots.
 */
export function engineIdentity(address: EngineAddress, tls: boolean): string {
  if (address.kind === 'unix') return `unix:${normalSocketPath(address.path)}`;
  return `net:${address.host.toLowerCase()}:${enginePort(address, tls)}`;
}
