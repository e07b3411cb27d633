import { randomBytes } from 'node:crypto';
import type { Container, EventsResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;
const engine = rigEngine('plain');
const name = `berth-s-${randomBytes(4).toString('hex')}`;
let id = '';

const runContainer = () =>
  dockerCli(engine, [
    'run',
    '-d',
    '--init',
    '--label',
    'com.docker.compose.project=shop',
    '--name',
    name,
    readRig().images.busybox,
    'sleep',
    '100000',
  ]).slice(0, 12);

const container = async () =>
  (await api.get<Container[]>(`/containers?host_id=${host.id}`)).body.find((c) => c.name === name);

beforeAll(async () => {
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'plain', url: engine.url })).body;
  id = runContainer();
  await waitFor('container listed', async () => (await container()) !== undefined);
});
afterAll(async () => {
  dockerCli(engine, ['rm', '-f', name]);
  await t.close();
});

const path = (suffix: string, c = id) => `/hosts/${host.id}/containers/${c}/${suffix}`;

describe('container tags, auto-restart and desired state', () => {
  it('adds and removes tags, keeps the derived compose tag, and records who did it', async () => {
    const added = await api.patch<{ tags: string[] }>(path('tags'), {
      tags_to_add: [' Web ', 'eu.west', 'tier:1'],
    });
    expect(added.status).toBe(200);
    expect(added.body.tags).toEqual(['web', 'eu.west', 'tier:1']);
    const removed = await api.patch<{ tags: string[] }>(path('tags'), { tags_to_remove: ['web'] });
    expect(removed.body.tags).toEqual(['eu.west', 'tier:1']);
    expect((await container())?.tags).toEqual(['eu.west', 'tier:1', 'compose:shop']);
    const events = await api.get<EventsResponse>(`/events?event_type=settings_changed`);
    expect(events.body.events[0]?.title).toBe(`Container ${name}: tags updated by admin`);
  });

  it.each([
    [{ tags_to_add: [''] }, 'Tag cannot be empty'],
    [{ tags_to_add: ['x'.repeat(25)] }, 'Tag must be 1-24 characters'],
    [
      { tags_to_add: ['no spaces'] },
      'Tags to add: Invalid characters (alphanumeric, -, _, :, . only)',
    ],
    [
      { tags_to_remove: ['compose:shop'] },
      'Tags to remove: Tags starting with compose: or swarm: are derived and cannot be edited',
    ],
    [{ tags: ['a'] }, 'Unknown field: tags'],
  ])('refuses %j with a message naming the field', async (body, detail) => {
    const res = await api.patch<{ detail: string }>(path('tags'), body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(detail);
  });

  it('turns auto-restart on and off and sets the desired state and Web UI link', async () => {
    const on = await api.post<Container>(path('auto-restart'), {
      enabled: true,
      container_name: name,
    });
    expect(on.status).toBe(200);
    expect(on.body.auto_restart).toBe(true);
    const state = await api.post<Container>(path('desired-state'), {
      desired_state: 'should_run',
      web_ui_url: 'http://127.0.0.1:8080/',
    });
    expect(state.body).toMatchObject({
      desired_state: 'should_run',
      web_ui_url: 'http://127.0.0.1:8080/',
    });
    const cleared = await api.post<Container>(path('desired-state'), {
      desired_state: 'on_demand',
      web_ui_url: '',
    });
    expect(cleared.body).toMatchObject({ desired_state: 'on_demand', web_ui_url: null });
    const kept = await api.post<Container>(path('desired-state'), { desired_state: 'on_demand' });
    expect(kept.body.web_ui_url).toBeNull();
    const bad = await api.post<{ detail: string }>(path('desired-state'), {
      desired_state: 'on_demand',
      web_ui_url: 'ftp://x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('Web UI URL must start with http:// or https://');
    const wrong = await api.post<{ detail: string }>(path('desired-state'), {
      desired_state: 'always',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/^Desired state /);
    expect((await api.post(path('auto-restart'), { enabled: 'yes' })).status).toBe(400);
  });

  it('answers 404 for an unknown host or container', async () => {
    const noHost = await api.post<{ detail: string }>(`/hosts/nope/containers/${id}/auto-restart`, {
      enabled: true,
    });
    expect(noHost.status).toBe(404);
    expect(noHost.body.detail).toBe('Host not found');
    const noContainer = await api.patch<{ detail: string }>(path('tags', 'deadbeef0000'), {
      tags_to_add: ['x'],
    });
    expect(noContainer.status).toBe(404);
    expect(noContainer.body.detail).toBe('Container not found');
  });

  it('keeps the settings when the container is recreated under the same name', async () => {
    await api.post(path('auto-restart'), { enabled: true });
    dockerCli(engine, ['rm', '-f', name]);
    id = runContainer();
    await waitFor('recreated container listed', async () => (await container())?.id === id);
    expect(await container()).toMatchObject({
      auto_restart: true,
      desired_state: 'on_demand',
      tags: ['eu.west', 'tier:1', 'compose:shop'],
    });
  });
});
