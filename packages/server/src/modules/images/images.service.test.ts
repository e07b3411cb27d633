import { IMAGE_REFERENCE_PATTERN, imagePullBodySchema } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../docker/index.js';
import type { Fleet } from '../monitor/index.js';
import { engineRefusal, ImagesService } from './images.service.js';
import { usersByImage } from './image-view.js';

const hex = (c: string) => c.repeat(64);
const summary = (id: string, tags: string[], size = 100) => ({
  Id: `sha256:${id}`,
  ParentId: '',
  RepoTags: tags,
  RepoDigests: [],
  Created: 1_700_000_000,
  Size: size,
  SharedSize: -1,
  VirtualSize: size,
  Labels: {},
  Containers: -1,
});

/** A fleet of two hosts: `a` answers with the images given, `b` fails its list. */
function fleetOf(images: ReturnType<typeof summary>[]): Fleet {
  const engineA = {
    listImages: () => Promise.resolve(images),
    listContainers: () =>
      Promise.resolve([
        {
          Id: hex('c'),
          Names: ['/web'],
          Image: 'app:1',
          ImageID: `sha256:${hex('1')}`,
          State: 'running',
        },
      ]),
  } as unknown as Engine;
  const engineB = {
    listImages: () =>
      Promise.reject(
        Object.assign(new Error('x'), { statusCode: 500, json: { message: 'disk on fire' } }),
      ),
    listContainers: () => Promise.resolve([]),
  } as unknown as Engine;
  const hosts = [
    { id: 'a', name: 'alpha', status: 'online', error: null },
    { id: 'b', name: 'beta', status: 'online', error: null },
  ] as const;
  return {
    host: (id: string) => hosts.find((h) => h.id === id),
    hosts: () => [...hosts],
    engine: (id: string) => (id === 'a' ? engineA : id === 'b' ? engineB : null),
  } as unknown as Fleet;
}

describe('images service', () => {
  const images = [
    summary(hex('1'), ['app:1'], 1000),
    summary(hex('2'), ['<none>:<none>'], 300),
    summary(hex('3'), [], 200),
    summary(hex('4'), ['old:1'], 50),
  ];

  it('lists who uses each image, dangling and unused, and names a host that failed', async () => {
    const service = new ImagesService(fleetOf(images));
    const all = await service.list(undefined, () => true);
    expect(all.failed_hosts).toEqual([{ host_id: 'b', host_name: 'beta', error: 'disk on fire' }]);
    const byId = new Map(all.images.map((i) => [i.short_id, i]));
    expect(byId.get('111111111111')).toMatchObject({
      tags: ['app:1'],
      used_by: [{ id: 'cccccccccccc', name: 'web', state: 'running' }],
      dangling: false,
      unused: false,
    });
    expect(byId.get('222222222222')).toMatchObject({ tags: [], dangling: true, unused: true });
    expect(byId.get('444444444444')).toMatchObject({ dangling: false, unused: true });
  });

  it('keeps a host out of reach out of the list, and refuses it by name', async () => {
    const service = new ImagesService(fleetOf(images));
    const mine = await service.list(undefined, (id) => id === 'a');
    expect(mine.failed_hosts).toEqual([]);
    await expect(service.list('b', (id) => id === 'a')).rejects.toMatchObject({ statusCode: 404 });
    await expect(service.list('zzz', () => true)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('counts dangling unused images and their sizes for the prune dry run', async () => {
    const preview = await new ImagesService(fleetOf(images)).prunePreview('a');
    expect(preview.count).toBe(2);
    expect(preview.space).toBe(500);
  });

  it('answers 500 dangling images among 1,000 in the dry run', async () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      summary(String(i).padStart(64, '0'), i < 500 ? [] : [`app:${i}`], 10),
    );
    const preview = await new ImagesService(fleetOf(many)).prunePreview('a');
    expect(preview.count).toBe(500);
    expect(preview.space).toBe(5000);
  });

  it('turns engine answers into 4xx with the engine’s words', () => {
    const err = (statusCode: number, message?: string) =>
      Object.assign(new Error('engine'), { statusCode, ...(message ? { json: { message } } : {}) });
    expect(
      engineRefusal(err(409, 'image is being used by running container x'), 'remove', 'h'),
    ).toMatchObject({ statusCode: 409, message: 'image is being used by running container x' });
    expect(engineRefusal(err(404, 'No such image'), 'remove', 'h')).toMatchObject({
      statusCode: 404,
    });
    expect(engineRefusal(err(403, 'read-only'), 'remove', 'h')).toMatchObject({ statusCode: 403 });
    expect(engineRefusal(err(500), 'remove the image', 'h').statusCode).toBe(409);
  });

  it('maps containers to the image they run', () => {
    const users = usersByImage([
      { Id: hex('a'), Names: ['/one'], Image: 'x', ImageID: 'sha256:i' },
      { Id: hex('b'), Names: ['/two'], Image: 'x', ImageID: 'sha256:i' },
      { Id: hex('c'), Names: ['/three'], Image: 'y', ImageID: '' },
    ]);
    expect(users.get('sha256:i')?.map((u) => u.name)).toEqual(['one', 'two']);
    expect(users.size).toBe(1);
  });
});

describe('image references', () => {
  it.each([
    'busybox',
    'busybox:1.36',
    'library/busybox:latest',
    '127.0.0.1:25000/berth-test/app:1.0.2',
    'registry.example.com/team/app-name_x:v1.2',
    `app@sha256:${'a'.repeat(64)}`,
    `localhost:5000/app:1@sha256:${'b'.repeat(64)}`,
  ])('accepts %s', (ref) => {
    expect(IMAGE_REFERENCE_PATTERN.test(ref)).toBe(true);
  });

  it.each([
    '',
    ' ',
    'Not A Reference',
    'UPPER/case',
    'app:',
    'http://x/app',
    'app:tag with space',
    'a//b',
  ])('refuses %j', (ref) => {
    expect(imagePullBodySchema.safeParse({ reference: ref }).success).toBe(false);
  });
});
