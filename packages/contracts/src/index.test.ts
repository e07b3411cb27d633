import { expect, it, vi } from 'vitest';

/** Every use of `z` while the contracts load: each would build a schema on the page's start. */
const zodUses = vi.hoisted(() => [] as string[]);
vi.mock('zod', async (importOriginal) => {
  const zod = await importOriginal<typeof import('zod')>();
  const z = new Proxy(zod.z, {
    get: (target, key, receiver) => {
      zodUses.push(String(key));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { ...zod, z };
});

it('loading the contracts builds no schema (each is built on its first use: lazySchema)', async () => {
  const contracts = await import('./index.js');
  expect(Object.keys(contracts).length).toBeGreaterThan(100);
  expect(zodUses).toEqual([]);
  // The check itself: using a schema goes through `z`.
  contracts.hostStatusSchema.parse('online');
  expect(zodUses).toContain('enum');
});
