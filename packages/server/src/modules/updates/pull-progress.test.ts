import { describe, expect, it } from 'vitest';
import { PullProgress } from './pull-progress.js';

const A = 'a'.repeat(12);
const B = 'b'.repeat(12);

describe('pull progress', () => {
  it('says "Starting pull..." only until the first layer, then counts layers', () => {
    const p = new PullProgress();
    p.add({ status: 'Pulling from berth/web', id: '1.0.1' });
    expect(p.snapshot().summary).toBe('Starting pull...');
    p.add({ id: A, status: 'Already exists' });
    p.add({ id: B, status: 'Downloading', progressDetail: { current: 500_000, total: 1_000_000 } });
    expect(p.snapshot()).toMatchObject({
      summary: '1 of 2 layers complete (0.5 MB / 1.0 MB)',
      remaining_layers: 1,
    });
  });

  it('ends with what the pull did, never "Starting pull..."', () => {
    const present = new PullProgress();
    present.add({ status: 'Pulling from berth/web', id: '1.0.1' });
    present.add({ status: 'Digest: sha256:abc' });
    present.add({ status: 'Status: Image is up to date for berth/web:1.0.1' });
    expect(present.finished()).toMatchObject({
      overall_progress: 100,
      total_layers: 0,
      remaining_layers: 0,
      summary: 'Pull complete (image already present)',
    });

    const mixed = new PullProgress();
    mixed.add({ id: A, status: 'Already exists' });
    mixed.add({ id: B, status: 'Downloading', progressDetail: { current: 10, total: 100 } });
    mixed.add({ id: B, status: 'Pull complete' });
    const done = mixed.finished();
    expect(done).toMatchObject({
      overall_progress: 100,
      total_layers: 2,
      remaining_layers: 0,
      summary: 'Pull complete (2 layers, 1 already present)',
    });
    expect(done.layers.map((l) => l.percent)).toEqual([100, 100]);

    const fresh = new PullProgress();
    fresh.add({ id: A, status: 'Pull complete' });
    expect(fresh.finished().summary).toBe('Pull complete (1 layer)');
  });
});
