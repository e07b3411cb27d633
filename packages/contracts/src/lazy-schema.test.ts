import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

describe('lazySchema', () => {
  it('builds the schema on its first use, once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return z.object({ name: z.string().min(1, 'Name is required') });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ name: 'web' })).toEqual({ name: 'web' });
    expect(schema.safeParse({ name: '' }).error?.issues[0]?.message).toBe('Name is required');
    expect(builds).toBe(1);
  });

  it('stands for the built schema wherever a schema goes', () => {
    const inner = lazySchema(() => z.enum(['a', 'b']));
    const outer = lazySchema(() => z.object({ kind: inner, count: z.number() }));
    expect(outer instanceof z.ZodObject).toBe(true);
    expect(Object.keys(outer.shape)).toEqual(['kind', 'count']);
    expect(
      outer.extend({ extra: z.boolean() }).parse({ kind: 'a', count: 1, extra: true }),
    ).toEqual({ kind: 'a', count: 1, extra: true });
    expect(z.array(outer).safeParse([{ kind: 'c', count: 1 }]).success).toBe(false);
    expect(inner.optional().parse(undefined)).toBeUndefined();
  });

  it('does not build a schema when one that contains it is built', () => {
    let built = false;
    const inner = lazySchema(() => {
      built = true;
      return z.string();
    });
    const outer = z.object({ inner });
    expect(built).toBe(false);
    expect(outer.parse({ inner: 'x' })).toEqual({ inner: 'x' });
    expect(built).toBe(true);
  });

  it('also holds an object of schemas, for spreading and lookups', () => {
    const fields = lazySchema(() => ({ name: z.string(), size: z.number() }));
    expect('name' in fields).toBe(true);
    expect(z.object({ ...fields }).parse({ name: 'n', size: 2 })).toEqual({ name: 'n', size: 2 });
  });
});
