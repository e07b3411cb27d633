import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedQueue', () => {
  it('runs tasks of one key in order, each after the previous one ended', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([queue.run('a', task('1')), queue.run('a', task('2'))]);
    expect(results).toEqual(['1', '2']);
    expect(log).toEqual(['1 start', '1 end', '2 start', '2 end']);
  });

  it('goes on after a failure and lets other keys run side by side', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const failing = queue.run('a', async () => {
      await tick();
      log.push('a failed');
      throw new Error('boom');
    });
    const after = queue.run('a', () => Promise.resolve('after'));
    const other = queue.run('b', () => {
      log.push('b ran');
      return Promise.resolve('b');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await after).toBe('after');
    expect(await other).toBe('b');
    expect(log).toEqual(['b ran', 'a failed']);
  });
});
