import { randomBytes } from 'node:crypto';
import type {
  Host,
  ImageDetails,
  ImagePruneResponse,
  ImagePrunePreview,
  ImagePullLine,
  ImageRemoveResponse,
  ImagesResponse,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, IDLE, imageExistsOn, readRig, rigEngine } from '../../test/rig.js';
import { commitBusybox } from '../../test/rig-images.js';
import { cancelStalledPull } from '../../test/stalled-pull.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// Images on the rig's plain engine, built locally from the rig's busybox (no internet): the
// list with who uses each image, inspect, remove refused in the engine's words while a
// container runs the image, force once it has stopped, a pull from the rig's registry with its
// progress lines, and a prune while a pull runs that leaves the pulled image whole.
const engine = rigEngine('plain');
const suffix = randomBytes(3).toString('hex');
const repo = `berth-test/images-${suffix}`;
const remote = `${readRig().registry}/berth-test/images-pull-${suffix}`;
const runner = `berth-images-${suffix}`;
const cli = (...args: string[]) => dockerCli(engine, args);
const imageExists = (ref: string) => imageExistsOn(engine, ref);
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let cookie: string;
let host: Host;

/** Commits the rig's busybox, with `run` executed first, as `ref`; answers the image id. */
const build = (ref: string, run = 'true') =>
  commitBusybox(engine, ref, run, [`LABEL berth.test=${suffix}`]);

const listed = async () => (await api.get<ImagesResponse>(`/images?host=${host.id}`)).body;

beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  host = (await api.post<Host>('/hosts', { name: 'rig-plain', url: engine.url, tags: [] })).body;
  await waitFor(
    'host online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
    30_000,
  );
}, 120_000);

afterAll(async () => {
  for (const args of [
    ['rm', '-f', runner],
    ['rmi', '-f', `${repo}:used`, `${repo}:dangle`, `${remote}:big`],
  ]) {
    try {
      cli(...args);
    } catch {
      // gone already
    }
  }
  await t.close();
}, 60_000);

describe('images on a real engine', { timeout: 120_000 }, () => {
  it('lists an image with the container that uses it, and a dangling one', async () => {
    const usedId = build(`${repo}:used`);
    const firstDangle = build(`${repo}:dangle`, 'echo one > /one');
    build(`${repo}:dangle`, 'echo two > /two'); // the tag moves: the first is dangling now
    cli('run', '-d', '--name', runner, `${repo}:used`, 'sh', '-c', IDLE);
    const { images, failed_hosts } = await listed();
    expect(failed_hosts).toEqual([]);
    const used = images.find((i) => i.id === usedId);
    expect(used).toMatchObject({
      host_id: host.id,
      tags: [`${repo}:used`],
      dangling: false,
      unused: false,
    });
    expect(used?.used_by.map((u) => u.name)).toEqual([runner]);
    expect(used?.used_by[0]?.state).toBe('running');
    expect(images.find((i) => i.id === firstDangle)).toMatchObject({
      tags: [],
      dangling: true,
      unused: true,
    });
  });

  it('inspects an image with its history', async () => {
    const id = cli('image', 'inspect', '-f', '{{.Id}}', `${repo}:used`);
    const res = await api.get<ImageDetails>(`/hosts/${host.id}/images/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.image.tags).toEqual([`${repo}:used`]);
    expect(res.body.config.labels['berth.test']).toBe(suffix);
    expect(res.body.history.length).toBeGreaterThan(0);
    expect(res.body.layers).toBeGreaterThan(0);
  });

  it('refuses to remove an image a running container uses, in the engine’s words', async () => {
    const id = cli('image', 'inspect', '-f', '{{.Id}}', `${repo}:used`);
    const res = await api.delete<{ detail: string }>(`/hosts/${host.id}/images/${id}`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/being used by running container/);
    // Force cannot remove it from under a running container either.
    const forced = await api.delete<{ detail: string }>(
      `/hosts/${host.id}/images/${id}?force=true`,
    );
    expect(forced.status).toBe(409);
    expect(cli('image', 'inspect', '-f', '{{.Id}}', id)).toBe(id);
  });

  it('removes it with force once its container has stopped', async () => {
    cli('stop', '-t', '1', runner);
    const id = cli('image', 'inspect', '-f', '{{.Id}}', `${repo}:used`);
    const plain = await api.delete<{ detail: string }>(`/hosts/${host.id}/images/${id}`);
    expect(plain.status).toBe(409);
    expect(plain.body.detail).toMatch(/stopped container/);
    const res = await api.delete<ImageRemoveResponse>(`/hosts/${host.id}/images/${id}?force=true`);
    expect(res.status).toBe(200);
    expect(res.body.untagged).toContain(`${repo}:used`);
    expect(() => cli('image', 'inspect', `${repo}:used`)).toThrow();
  });

  it('answers bad input with 400 naming the field', async () => {
    const empty = await api.post<{ detail: string }>(`/hosts/${host.id}/images/pull`, {
      reference: '',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toMatch(/reference/i);
    const malformed = await api.post<{ detail: string }>(`/hosts/${host.id}/images/pull`, {
      reference: 'Not A/Reference!',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail).toMatch(/reference/i);
    const badId = await api.delete<{ detail: string }>(`/hosts/${host.id}/images/xyz`);
    expect(badId.status).toBe(400);
    expect(badId.body.detail).toMatch(/image ?id/i);
    const noHost = await api.get<{ detail: string }>('/images?host=nope');
    expect(noHost.status).toBe(404);
  });

  it('a pull of an image the registry lacks is refused before any stream', async () => {
    const res = await api.post<{ detail: string }>(`/hosts/${host.id}/images/pull`, {
      reference: `${remote}:missing`,
    });
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/not found|unknown/i);
  });

  it('prunes dangling images while a pull runs; the pulled image is whole', async () => {
    // A 48 MB random layer, only in the registry: the pull takes long enough to prune in it.
    build(`${remote}:big`, 'head -c 50331648 /dev/urandom > /big');
    cli('push', '-q', `${remote}:big`);
    cli('rmi', `${remote}:big`);

    // A dangling image of this test's own: other tests on the engine may prune theirs meanwhile.
    const dangling = build(`${repo}:dangle`, 'echo three > /three');
    build(`${repo}:dangle`, 'echo four > /four');
    const preview = (await api.get<ImagePrunePreview>(`/hosts/${host.id}/images/prune`)).body;
    expect(preview.images.map((i) => i.id)).toContain(dangling);
    expect(preview.space).toBeGreaterThan(0);

    const stream = await t.app.services.imagePulls.start(host.id, `${remote}:big`, {
      actor: 'admin',
      apiKey: null,
    });
    const text: Buffer[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('data', (chunk: Buffer) => text.push(chunk));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    expect(t.app.services.imagePulls.pullingOn(host.id)).toBe(true);
    const pruned = await api.post<ImagePruneResponse>(`/hosts/${host.id}/images/prune`);
    expect(pruned.status).toBe(200);
    await ended;
    expect(() => cli('image', 'inspect', dangling)).toThrow();

    const lines = Buffer.concat(text)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ImagePullLine);
    const last = lines.at(-1);
    expect(last).toMatchObject({ type: 'done', reference: `${remote}:big` });
    expect(lines.some((l) => l.type === 'progress')).toBe(true);
    const id = cli('image', 'inspect', '-f', '{{.Id}}', `${remote}:big`);
    expect(last?.type === 'done' ? last.image_id : null).toBe(id);
    // Whole: a container runs from it and reads the big layer.
    expect(cli('run', '--rm', `${remote}:big`, 'sh', '-c', 'wc -c < /big')).toBe('50331648');
  });

  it('answers a pull through the API as progress lines ending in done', async () => {
    cli('rmi', `${remote}:big`);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/hosts/${host.id}/images/pull`,
      headers: { cookie },
      payload: { reference: `${remote}:big` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/ndjson/);
    const lines = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ImagePullLine);
    expect(lines.at(-1)).toMatchObject({ type: 'done' });
    // Audited with the reference: both pulls of it, and the refused one.
    const audit = await waitFor(
      'pull audited',
      async () => {
        const r = await api.get<{ entries: { action: string; target: string | null }[] }>(
          `/audit?action=image.pull&target=${encodeURIComponent(remote)}`,
        );
        const mine = r.body.entries.filter((e) => e.target === `image ${remote}:big`);
        return mine.length >= 2 ? r.body.entries : undefined;
      },
      10_000,
    );
    // The refused pull of a missing tag is there too.
    expect(audit.some((e) => e.target === `image ${remote}:missing`)).toBe(true);
  });

  it('a reader that goes away mid-pull: the engine finishes it, nothing breaks', async () => {
    cli('rmi', `${remote}:big`);
    const stream = await t.app.services.imagePulls.start(host.id, `${remote}:big`, {
      actor: 'admin',
      apiKey: null,
    });
    stream.destroy();
    await waitFor('pull finished', () => !t.app.services.imagePulls.pullingOn(host.id), 60_000);
    expect(cli('image', 'inspect', '-f', '{{.Id}}', `${remote}:big`)).toMatch(/^sha256:/);
    expect((await api.get(`/images?host=${host.id}`)).status).toBe(200);
  });

  it('cancels a pull under way: the engine stops, the answer and the audit say who', async () => {
    cli('rmi', `${remote}:big`); // its big layer must come from the registry again
    // Only a pull that runs can be cancelled, named in words.
    const none = await api.post<{ detail: string }>(`/hosts/${host.id}/images/pull/cancel`, {
      reference: `${remote}:nothing`,
    });
    expect(none.status).toBe(404);
    expect(none.body.detail).toBe(`No pull of ${remote}:nothing is running on rig-plain`);
    await cancelStalledPull({
      t,
      api,
      cookie,
      hostId: host.id,
      imageExists,
      repoTag: `berth-test/images-pull-${suffix}:big`,
    });
  });
});
