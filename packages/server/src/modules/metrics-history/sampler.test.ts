import { describe, expect, it } from 'vitest';
import { historyFleet, statsOf } from '../../test/history-fleet.js';
import { Sampler } from './sampler.js';

function setup() {
  const fake = historyFleet([{ id: 'h1' }]);
  const clock = { wall: 1_800_000_000_000, mono: 0 };
  const sampler = new Sampler(fake.fleet, { now: () => clock.wall, mono: () => clock.mono });
  const advance = (ms: number) => {
    clock.wall += ms;
    clock.mono += ms;
  };
  return { fake, clock, sampler, advance };
}

describe('the 10 s points of the stats passes', () => {
  it('averages the samples of a bucket and hands it over once the clock left it', () => {
    const { fake, sampler, advance } = setup();
    const web = fake.add('h1', { id: 'c1', name: 'web', running: true, stats: statsOf(10, 100) });
    expect(sampler.sample()).toEqual([]);
    advance(2000);
    web.stats = statsOf(20, 300);
    expect(sampler.sample()).toEqual([]);
    advance(10_000);
    const closed = sampler.sample();
    const point = closed.find((p) => p.name === 'web');
    expect(point).toMatchObject({ t: 1_800_000_000, n: 2, containerId: 'c1' });
    expect(point?.values).toMatchObject({ cpu: 1500, mem: 200, mem_pct: 2000 });
    const host = closed.find((p) => p.name === '');
    expect(host?.values).toMatchObject({ cpu: 1500, mem: 200, disk: null });
    expect(host?.health).toBe(1);
  });

  it('gives network rates from the counters, none when a counter went back', () => {
    const { fake, sampler, advance } = setup();
    const c = fake.add('h1', { id: 'c1', name: 'web', running: true, stats: statsOf(1, 1, 0, 0) });
    sampler.sample();
    advance(10_000);
    c.stats = statsOf(1, 1, 10_000, 5_000);
    sampler.sample();
    advance(10_000);
    c.stats = statsOf(1, 1, 100, 100); // restarted: counters from zero
    const first = sampler.sample().find((p) => p.name === 'web');
    expect(first?.values).toMatchObject({ rx: 1000, tx: 500 });
    advance(10_000);
    const second = sampler.sample().find((p) => p.name === 'web');
    expect(second?.values).toMatchObject({ rx: null, tx: null });
  });

  it('gives block I/O rates per container and summed for the host, none without counters', () => {
    const { fake, sampler, advance } = setup();
    const block = (br: number | undefined, bw: number | undefined) => ({
      ...statsOf(1, 1),
      block_read: br,
      block_write: bw,
    });
    const a = fake.add('h1', { id: 'c1', name: 'db', running: true, stats: block(0, 0) });
    const b = fake.add('h1', { id: 'c2', name: 'web', running: true, stats: block(0, 0) });
    const none = fake.add('h1', { id: 'c3', name: 'api', running: true, stats: statsOf(1, 1) });
    sampler.sample();
    advance(10_000);
    a.stats = block(50_000, 200_000);
    b.stats = block(10_000, 0);
    none.stats = statsOf(1, 1);
    sampler.sample();
    advance(10_000);
    const closed = sampler.sample(); // the bucket of the second pass
    expect(closed.find((p) => p.name === 'db')?.values).toMatchObject({ br: 5000, bw: 20_000 });
    expect(closed.find((p) => p.name === 'web')?.values).toMatchObject({ br: 1000, bw: 0 });
    expect(closed.find((p) => p.name === 'api')?.values).toMatchObject({ br: null, bw: null });
    expect(closed.find((p) => p.name === '')?.values).toMatchObject({ br: 6000, bw: 20_000 });
    a.stats = block(100, 100); // restarted: the counters begin again, no negative rate
    advance(10_000);
    sampler.sample();
    advance(10_000);
    const after = sampler.sample().find((p) => p.name === 'db');
    expect(after?.values).toMatchObject({ br: null, bw: null });
  });

  it('writes no bucket twice and no negative rate when the wall clock jumps back', () => {
    const { fake, clock, sampler, advance } = setup();
    const c = fake.add('h1', { id: 'c1', name: 'web', running: true, stats: statsOf(5, 1, 0, 0) });
    const points: { t: number; rx: number | null }[] = [];
    const take = () => {
      for (const p of sampler.sample())
        if (p.name === 'web') points.push({ t: p.t, rx: p.values.rx });
    };
    let bytes = 0;
    for (let i = 0; i < 6; i++) {
      bytes += 1000;
      c.stats = statsOf(5, 1, bytes, 0);
      take();
      advance(10_000);
    }
    clock.wall -= 45_000; // NTP steps the clock back; the monotonic clock goes on
    for (let i = 0; i < 8; i++) {
      bytes += 1000;
      c.stats = statsOf(5, 1, bytes, 0);
      take();
      advance(10_000);
    }
    const ts = points.map((p) => p.t);
    expect(new Set(ts).size).toBe(ts.length);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    for (const p of points) expect(p.rx === null || p.rx >= 0).toBe(true);
    // Samples resumed once the clock passed the last bucket written.
    expect(ts[ts.length - 1]).toBeGreaterThan(1_800_000_050);
  });

  it('records an offline host by its health alone', () => {
    const fake = historyFleet([{ id: 'h1', status: 'offline' }]);
    let wall = 1_800_000_000_000;
    const sampler = new Sampler(fake.fleet, { now: () => wall, mono: () => wall });
    fake.add('h1', { id: 'c1', name: 'web', running: true, stats: statsOf(5, 1) });
    sampler.sample();
    wall += 10_000;
    const closed = sampler.sample();
    expect(closed.map((p) => p.name)).toEqual(['']);
    expect(closed[0]?.health).toBe(3);
    expect(closed[0]?.values.cpu).toBeNull();
  });
});
