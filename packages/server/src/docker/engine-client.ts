import Docker from 'dockerode';

/** How to reach one engine: its URL and, for mutual TLS, PEM texts (never file paths). */
export interface EngineEndpoint {
  url: string;
  tls?: { ca: string; cert: string; key: string } | null;
}

/**
 * A dockerode client for unix://, tcp:// (https when TLS material is given), http:// and
 * https:// URLs. `timeoutMs` bounds requests; leave it out for long-lived streams (events).
 */
export function createEngineClient(
  endpoint: EngineEndpoint,
  options: { timeoutMs?: number } = {},
): Docker {
  const timeout = options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs };
  const url = endpoint.url.trim();
  if (url.startsWith('unix://')) {
    return new Docker({ socketPath: url.slice('unix://'.length), ...timeout });
  }
  const match = /^(tcp|http|https):\/\/([^/:]+|\[[^\]]+\])(?::(\d+))?\/?$/.exec(url);
  if (match === null) {
    throw new Error(`Unsupported engine address ${url}: use unix://, tcp://, http:// or https://`);
  }
  const [, scheme, host = '', port] = match;
  const tls = endpoint.tls ?? null;
  const protocol = scheme === 'https' || (scheme === 'tcp' && tls !== null) ? 'https' : 'http';
  const defaultPort =
    protocol === 'https' ? (scheme === 'https' ? 443 : 2376) : scheme === 'http' ? 80 : 2375;
  return new Docker({
    protocol,
    host: host.replace(/^\[|\]$/g, ''),
    port: port === undefined ? defaultPort : Number(port),
    ...(tls === null ? {} : { ca: tls.ca, cert: tls.cert, key: tls.key }),
    ...timeout,
  });
}
