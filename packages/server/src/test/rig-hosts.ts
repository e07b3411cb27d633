import type { Host } from '@berth/contracts';
import { waitFor } from './wait.js';
import { endpointOf, rigEngine, type RigEngine } from './rig.js';
import type { apiClient } from './api.js';

/** Registers the rig's three engines through the API and waits until each is online. */
export async function addRigHosts(
  api: ReturnType<typeof apiClient>,
): Promise<Record<RigEngine['name'], Host>> {
  const out: Partial<Record<RigEngine['name'], Host>> = {};
  for (const name of ['local', 'plain', 'tls'] as const) {
    const engine = rigEngine(name);
    const tls = endpointOf(engine).tls;
    const res = await api.post<Host>('/hosts', {
      name: `rig-${name}`,
      url: engine.url,
      tags: [name],
      tls_ca: tls?.ca ?? null,
      tls_cert: tls?.cert ?? null,
      tls_key: tls?.key ?? null,
    });
    if (res.status !== 200) throw new Error(`adding ${name} failed: ${JSON.stringify(res.body)}`);
    out[name] = res.body;
  }
  // Each engine is listed and inspected whole before it is online; allow for a busy machine.
  await waitFor(
    'all rig hosts online',
    async () => {
      const hosts = (await api.get<Host[]>('/hosts')).body;
      return hosts.length === 3 && hosts.every((h) => h.status === 'online');
    },
    30_000,
  );
  return out as Record<RigEngine['name'], Host>;
}
