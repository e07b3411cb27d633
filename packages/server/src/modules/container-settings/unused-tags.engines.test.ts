import { randomBytes } from 'node:crypto';
import type { Container, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let host: Host;
let offline: Host;
const engine = rigEngine('plain');
const suffix = randomBytes(4).toString('hex');
const live = `berth-tags-${suffix}`;
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const rowOf = (hostId: string, name: string) =>
  t.app.services.db
    .selectFrom('container_settings')
    .select(['tags', 'last_seen_at'])
    .where('host_id', '=', hostId)
    .where('container_name', '=', name)
    .executeTakeFirstOrThrow();

async function seedRow(hostId: string, name: string, lastSeen: string | null) {
  await t.app.services.db
    .insertInto('container_settings')
    .values({
      host_id: hostId,
      container_name: name,
      tags: '["old-tag"]',
      auto_restart: null,
      desired_state: 'unspecified',
      web_ui_url: null,
      auto_update_enabled: 0,
      floating_tag_mode: 'exact',
      updated_at: ago(60),
      last_seen_at: lastSeen,
    })
    .execute();
}

beforeAll(async () => {
  t = await buildTestApp();
  const cookie = await signedInCookie(t.app);
  let api = apiClient(t.app, cookie);
  host = (await api.post<Host>('/hosts', { name: 'tags-plain', url: engine.url })).body;
  offline = (await api.post<Host>('/hosts', { name: 'tags-gone', url: 'tcp://127.0.0.1:1' })).body;
  dockerCli(engine, [
    'run',
    '-d',
    '--init',
    '--name',
    live,
    readRig().images.busybox,
    'sleep',
    '600',
  ]);
  const id = await waitFor(
    'container listed',
    async () =>
      (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.find(
        (c) => c.name === live,
      )?.id,
  );
  await api.patch(`/hosts/${host.id}/containers/${id}/tags`, { tags_to_add: ['keep-me'] });
  await seedRow(host.id, `gone-long-${suffix}`, ago(40));
  await seedRow(host.id, `gone-lately-${suffix}`, ago(5));
  await seedRow(host.id, `never-marked-${suffix}`, null);
  await seedRow(offline.id, `unreachable-${suffix}`, ago(40));
  // The settings cache reads the rows written behind its back at start.
  api = apiClient(await t.restart(), cookie);
  await waitFor('host online again', async () =>
    (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online' ? true : undefined,
  );
});
afterAll(async () => {
  dockerCli(engine, ['rm', '-f', live]);
  await t.close();
});

describe('unused tags', () => {
  it('go from containers nobody has seen for the retention period, and only from those', async () => {
    const report = await t.app.services.retention.runOnce();
    expect(report.untagged).toBe(1);
    expect((await rowOf(host.id, `gone-long-${suffix}`)).tags).toBe('[]');
    expect((await rowOf(host.id, `gone-lately-${suffix}`)).tags).toBe('["old-tag"]');
    const never = await rowOf(host.id, `never-marked-${suffix}`);
    expect(never.tags).toBe('["old-tag"]');
    expect(Date.parse(never.last_seen_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const seen = await rowOf(host.id, live);
    expect(seen.tags).toBe('["keep-me"]');
    expect(Date.parse(seen.last_seen_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    // A host that does not answer now may still run its containers: its rows wait.
    expect((await rowOf(offline.id, `unreachable-${suffix}`)).tags).toBe('["old-tag"]');
  });
});
