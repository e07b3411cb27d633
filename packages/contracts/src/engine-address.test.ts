import { describe, expect, it } from 'vitest';
import {
  ENGINE_PORT_RANGE,
  ENGINE_SOCKET_PATH,
  ENGINE_URL_FORM,
  engineIdentity,
  parseEngineUrl,
  type EngineAddress,
} from './engine-address.js';
import { hostPayloadSchema } from './hosts.js';

const identity = (url: string, tls = false) =>
  engineIdentity(parseEngineUrl(url) as EngineAddress, tls);

describe('engine URLs', () => {
  it('read unix sockets and host:port over every scheme', () => {
    expect(parseEngineUrl('unix:///var/run/docker.sock')).toEqual({
      kind: 'unix',
      path: '/var/run/docker.sock',
    });
    expect(parseEngineUrl(' tcp://Edge.example.com:2376/ ')).toEqual({
      kind: 'network',
      scheme: 'tcp',
      host: 'Edge.example.com',
      port: 2376,
    });
    expect(parseEngineUrl('https://[::1]')).toEqual({
      kind: 'network',
      scheme: 'https',
      host: '::1',
      port: null,
    });
  });

  it.each([
    ['tcp://127.0.0.1:99999', ENGINE_PORT_RANGE],
    ['tcp://127.0.0.1:65536', ENGINE_PORT_RANGE],
    ['http://127.0.0.1:0', ENGINE_PORT_RANGE],
    ['tcp://127.0.0.1:', ENGINE_PORT_RANGE],
    ['tcp://127.0.0.1:2375/docker', ENGINE_URL_FORM],
    ['tcp://', ENGINE_URL_FORM],
    ['tcp://user@host:2375', ENGINE_URL_FORM],
    ['http://host:12ab', ENGINE_URL_FORM],
    ['unix://var/run/docker.sock', ENGINE_SOCKET_PATH],
    ['unix://', ENGINE_SOCKET_PATH],
  ])('refuse %s', (url, error) => {
    expect(parseEngineUrl(url)).toEqual({ error });
  });

  it('are one engine whatever the spelling', () => {
    expect(identity('http://127.0.0.1:2375')).toBe(identity('tcp://127.0.0.1:2375'));
    expect(identity('tcp://127.0.0.1')).toBe(identity('tcp://127.0.0.1:2375/'));
    expect(identity('tcp://host', true)).toBe(identity('https://HOST:2376'));
    expect(identity('https://host')).toBe(identity('tcp://host:443', true));
    expect(identity('tcp://[::1]:2375')).toBe(identity('http://[::1]:2375'));
    expect(identity('unix:///var/run//docker.sock/')).toBe(
      identity('unix:///var/./run/docker.sock'),
    );
    expect(identity('unix:///var/x/../run/docker.sock')).toBe(
      identity('unix:///var/run/docker.sock'),
    );
    // Other ports, hosts or sockets are other engines.
    expect(identity('tcp://127.0.0.1')).not.toBe(identity('http://127.0.0.1'));
    expect(identity('tcp://127.0.0.1:2375')).not.toBe(identity('tcp://127.0.0.1:2376'));
    expect(identity('tcp://127.0.0.2:2375')).not.toBe(identity('tcp://127.0.0.1:2375'));
    expect(identity('unix:///run/a.sock')).not.toBe(identity('unix:///run/b.sock'));
  });

  it('are checked by the host payload, on the url field', () => {
    const parsed = hostPayloadSchema.safeParse({ name: 'edge', url: 'tcp://127.0.0.1:99999' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['url'], ENGINE_PORT_RANGE],
    ]);
    const scheme = hostPayloadSchema.safeParse({ name: 'edge', url: 'ftp://x:99999' });
    expect(scheme.error?.issues.map((i) => i.message)).toEqual([
      'URL must start with unix://, tcp://, http:// or https://',
    ]);
    expect(hostPayloadSchema.safeParse({ name: 'edge', url: 'tcp://127.0.0.1:2375' }).success).toBe(
      true,
    );
  });
});
