import { randomBytes } from 'node:crypto';
import { containerKey } from '@berth/contracts';
import type { AuditResponse, BatchJob, Container, CreatedApiKey } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, IDLE, rigEngine, runBusybox } from '../../test/rig.js';
import { addRigHosts } from '../../test/rig-hosts.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

/**
 * Work on a real engine that no request carries out itself: a batch of restarts started with
 * an API key, audited item by item, and an auto-restart, audited as the system's.
 */
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let cookie: string;
const made: string[] = [];
const engine = rigEngine('plain');

beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  await addRigHosts(api);
  // The shortest wait before an auto-restart the settings allow.
  expect((await api.put('/settings', { retry_delay: 5 })).status).toBe(200);
});

/** Starts an idle (or given) container on the plain engine; answers its 12-character id. */
function run(name: string, command = IDLE): string {
  made.push(name);
  return runBusybox(engine, name, { command });
}

async function plainHost() {
  const host = (await api.get<{ id: string; name: string }[]>('/hosts')).body.find(
    (h) => h.name === 'rig-plain',
  );
  if (host === undefined) throw new Error('rig-plain not added');
  return host;
}
afterAll(async () => {
  for (const name of made) dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

describe('audit of work on a real engine', { timeout: 90_000 }, () => {
  it('records the request and each restarted container with the initiator', async () => {
    const host = await plainHost();
    const names = Array.from({ length: 3 }, () => `berth-audit-${randomBytes(4).toString('hex')}`);
    const ids = names.map((name) => run(name));
    await waitFor('containers listed', async () => {
      const listed = (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body;
      return ids.every((id) => listed.some((c) => c.id === id && c.state === 'running'));
    });
    const key = (
      await api.post<CreatedApiKey>('/api-keys', {
        name: 'deploy-bot',
        scope: 'operate',
        expires_at: null,
      })
    ).body.key;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/batch',
      headers: { authorization: `Bearer ${key}`, 'user-agent': 'deploy-bot/2' },
      payload: {
        scope: 'container',
        action: 'restart',
        ids: ids.map((id) => containerKey(host.id, id)),
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const jobId = created.json<{ job_id: string }>().job_id;
    await waitFor(
      'job finished',
      async () => (await api.get<BatchJob>(`/batch/${jobId}`)).body.status === 'completed',
      60_000,
      200,
    );

    const log = (await api.get<AuditResponse>('/audit?user=deploy-bot&limit=100')).body.entries;
    expect(log.find((e) => e.action === 'batch.create')).toMatchObject({
      actor: 'admin',
      api_key: 'deploy-bot',
      source: 'api',
      user_agent: 'deploy-bot/2',
      ok: true,
    });
    const items = log.filter((e) => e.action === 'container.restart' && e.source === 'batch');
    expect(items.map((e) => e.container_name).sort()).toEqual([...names].sort());
    for (const item of items)
      expect(item).toMatchObject({
        actor: 'admin',
        api_key: 'deploy-bot',
        host_id: host.id,
        host_name: 'rig-plain',
        target: `batch ${jobId}`,
        ok: true,
      });
  });

  it("records an auto-restart as the system's", async () => {
    const host = await plainHost();
    const name = `berth-audit-ar-${randomBytes(4).toString('hex')}`;
    const id = run(name, 'sleep 2; exit 3');
    await waitFor('container listed', async () =>
      (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.some((c) => c.id === id),
    );
    const on = await api.post(`/hosts/${host.id}/containers/${id}/auto-restart`, {
      enabled: true,
    });
    expect(on.status).toBe(200);
    const row = await waitFor(
      'auto-restart audited',
      async () =>
        (
          await api.get<AuditResponse>('/audit?action=container.auto-restart&user=system')
        ).body.entries.find((e) => e.container_name === name),
      30_000,
      500,
    );
    expect(row).toMatchObject({
      actor: 'system',
      api_key: null,
      source: 'schedule',
      host_id: host.id,
      host_name: 'rig-plain',
      ok: true,
    });
  });
});
