import { randomBytes } from 'node:crypto';
import type {
  NetworkCreated,
  NetworksResponse,
  Volume,
  VolumeRemoveResponse,
  VolumesResponse,
} from '@berth/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerCli, rigEngine } from '../../test/rig.js';
import { openTransportHost, type TransportHost } from '../../test/transports.js';
import { waitFor } from '../../test/wait.js';

// Volumes and networks through an agent process's tunnel, as through every other transport:
// the list with sizes (the engine's df through the tunnel), create and remove; and a
// read-only agent refusing every change in its own words (403), its lists still read.
const tag = randomBytes(3).toString('hex');
const cli = (...args: string[]) => dockerCli(rigEngine('plain'), args);
const opened: TransportHost[] = [];

afterAll(async () => {
  for (const args of [
    ['volume', 'rm', '-f', `berth-agvol-${tag}`, `berth-agvol-${tag}-ro`],
    ['network', 'rm', `berth-agnet-${tag}`],
  ]) {
    try {
      cli(...args);
    } catch {
      // removed by the test
    }
  }
  for (const h of opened) await h.close();
}, 60_000);

async function open(env: Record<string, string> = {}): Promise<TransportHost> {
  const h = await openTransportHost('agent', {}, env);
  opened.push(h);
  await waitFor('volumes read through the agent', async () => {
    const r = await h.api.get<VolumesResponse>(`/volumes?host=${h.host.id}`);
    return r.status === 200 && r.body.hosts[0]?.error === null;
  });
  return h;
}

describe('volumes and networks through an agent', { timeout: 90_000 }, () => {
  it('lists with sizes, creates and removes through the tunnel', async () => {
    const h = await open();
    const name = `berth-agvol-${tag}`;
    const made = await h.api.post<Volume>(`/hosts/${h.host.id}/volumes`, { name });
    expect(made.status).toBe(201);
    const list = await h.api.get<VolumesResponse>(`/volumes?host=${h.host.id}&sizes=true`);
    expect(list.body.sizes_note).toBeNull();
    expect(list.body.volumes.find((v) => v.name === name)?.size_bytes).toBe(0);
    const net = await h.api.post<NetworkCreated>(`/hosts/${h.host.id}/networks`, {
      name: `berth-agnet-${tag}`,
    });
    expect(net.status).toBe(201);
    const networks = await h.api.get<NetworksResponse>(`/networks?host=${h.host.id}`);
    expect(networks.body.networks.some((n) => n.id === net.body.id)).toBe(true);
    expect((await h.api.delete(`/hosts/${h.host.id}/networks/${net.body.id}`)).status).toBe(200);
    const removed = await h.api.delete<VolumeRemoveResponse>(`/hosts/${h.host.id}/volumes/${name}`);
    expect(removed.status).toBe(200);
  }, 90_000);

  it('a read-only agent refuses changes in its words; reads still work', async () => {
    cli('volume', 'create', `berth-agvol-${tag}-ro`);
    const h = await open({ BERTH_AGENT_READ_ONLY: '1' });
    const list = await h.api.get<VolumesResponse>(`/volumes?host=${h.host.id}`);
    expect(list.body.volumes.some((v) => v.name === `berth-agvol-${tag}-ro`)).toBe(true);
    const refused = await h.api.delete<{ detail: string }>(
      `/hosts/${h.host.id}/volumes/berth-agvol-${tag}-ro`,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('read-only');
    const create = await h.api.post<{ detail: string }>(`/hosts/${h.host.id}/networks`, {
      name: `berth-agnet-${tag}-ro`,
    });
    expect(create.status).toBe(403);
    expect(create.body.detail).toContain('read-only');
  }, 90_000);
});
