import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointOf, readRig, rigEngine } from '../test/rig.js';
import { readContainerStats } from './engine-stats.js';
import { createEngineClient, probeEngine } from './index.js';

describe('engine clients against the rig', () => {
  it.each(['local', 'plain', 'tls'] as const)(
    'reads version, containers and stats of the %s engine',
    async (name) => {
      const engine = rigEngine(name);
      const docker = createEngineClient(endpointOf(engine), { timeoutMs: 10_000 });
      const version = await docker.version();
      expect(version.ApiVersion).toMatch(/^1\.\d+$/);
      const container = await docker.createContainer({
        Image: readRig().images.busybox,
        Cmd: ['sleep', '30'],
        Labels: { 'berth-test': '1' },
        HostConfig: { Init: true },
      });
      try {
        await container.start();
        const listed = await docker.listContainers({ filters: { label: ['berth-test=1'] } });
        expect(listed.map((c) => c.Id)).toContain(container.id);
        const stats = await readContainerStats(docker, container.id, AbortSignal.timeout(10_000));
        expect(stats).toMatchObject({
          id: container.id,
          memory_stats: { usage: expect.any(Number) },
        });
      } finally {
        await container.remove({ force: true });
      }
    },
  );

  it('probes the mTLS engine with the right client certificate', async () => {
    const probe = await probeEngine(endpointOf(rigEngine('tls')), 10_000);
    expect(probe.docker_version).toMatch(/^\d+\.\d+/);
  });

  it('refuses a client certificate the engine does not trust, clearly', async () => {
    const engine = rigEngine('tls');
    await expect(probeEngine(endpointOf(engine, { wrongCert: true }), 10_000)).rejects.toThrow(
      `TLS handshake rejected by ${engine.url}: the engine did not accept the client certificate`,
    );
  });

  it('says when nothing listens on the port', async () => {
    await expect(probeEngine({ url: 'tcp://127.0.0.1:1' }, 5000)).rejects.toThrow(
      /^Connection refused by tcp:\/\/127\.0\.0\.1:1/,
    );
  });

  describe('a server that is not Docker', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>hello</html>');
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const address = server.address();
      url = `tcp://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    });
    afterAll(() => new Promise<void>((done) => server.close(() => done())));

    it('is reported as not a Docker engine', async () => {
      await expect(probeEngine({ url }, 5000)).rejects.toThrow(`Not a Docker engine at ${url}`);
    });
  });
});
