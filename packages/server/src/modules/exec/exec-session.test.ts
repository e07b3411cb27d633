import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../docker/index.js';
import { ExecSession, OUTPUT_HIGH_WATER, type SessionEnd } from './exec-session.js';

/** An engine whose one exec is a PassThrough: what the test writes is the process's output. */
function fakeEngine() {
  const stream = new PassThrough();
  const state = { running: true, exitCode: null as number | null, resizes: [] as unknown[] };
  stream.on('close', () => {
    state.running = false;
    state.exitCode = 0;
  });
  const engine = {
    createExec: () => Promise.resolve('exec-1'),
    startExec: () => Promise.resolve(stream),
    resizeExec: (_id: string, size: unknown) => {
      state.resizes.push(size);
      return Promise.resolve();
    },
    inspectExec: () =>
      Promise.resolve({ running: state.running, exitCode: state.exitCode, pid: 1 }),
  } as unknown as Engine;
  return { engine, stream, state };
}

function session(engine: Engine, options: { idleMs?: number; record?: boolean } = {}) {
  const sent: unknown[] = [];
  const pending: (() => void)[] = [];
  let end: SessionEnd | null = null;
  const s = new ExecSession({
    engine,
    containerId: 'c1',
    containerName: 'web',
    idleMs: options.idleMs ?? 60_000,
    record: options.record ?? false,
    log: { warn: () => undefined },
    peer: {
      send: (m) => sent.push(m),
      // The browser is slow: nothing is acknowledged until the test says so.
      sendOutput: (_chunk, done) => pending.push(done),
    },
    onEnd: (e) => (end = e),
  });
  return { s, sent, pending, ended: () => end };
}

const START = { type: 'start', command: '/bin/sh', user: '', cols: 80, rows: 24 } as const;

describe('a container shell session', () => {
  it('pauses the engine stream while the browser is behind, and resumes once it catches up', async () => {
    const { engine, stream } = fakeEngine();
    const { s, pending } = session(engine);
    await s.start(START);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pushes = Math.ceil(OUTPUT_HIGH_WATER / chunk.length) + 4;
    for (let i = 0; i < pushes; i += 1) stream.write(chunk);
    await new Promise((r) => setImmediate(r));
    expect(stream.isPaused()).toBe(true);
    // What is held is bounded by the high-water mark (plus the stream's own buffer).
    expect(pending.length * chunk.length).toBeLessThanOrEqual(OUTPUT_HIGH_WATER + chunk.length);
    for (const done of pending.splice(0)) done();
    expect(stream.isPaused()).toBe(false);
    await s.finish('closed');
  });

  it('ends after the idle time without input, and tells why', async () => {
    const { engine } = fakeEngine();
    const { s, ended } = session(engine, { idleMs: 50 });
    await s.start(START);
    await new Promise((r) => setTimeout(r, 150));
    expect(ended()).toMatchObject({ reason: 'idle', reaped: true, command: ['/bin/sh'] });
  });

  it('keeps input only when recording, and caps it', async () => {
    const plain = fakeEngine();
    const off = session(plain.engine);
    await off.s.start(START);
    off.s.write('secret\r');
    await off.s.finish('closed');
    expect(off.ended()?.input).toBe('');

    const recorded = fakeEngine();
    const on = session(recorded.engine, { record: true });
    await on.s.start(START);
    on.s.write('ls\r');
    on.s.write('x'.repeat(300 * 1024));
    await on.s.finish('closed');
    expect(on.ended()?.input.startsWith('ls\r')).toBe(true);
    expect(on.ended()?.input.length).toBe(256 * 1024);
    expect(on.ended()?.inputTruncated).toBe(true);
  });

  it('clamps a resize and says so', async () => {
    const { engine, state } = fakeEngine();
    const { s, sent } = session(engine);
    await s.start(START);
    await s.resize(9999, 0);
    expect(sent).toContainEqual({ type: 'resized', cols: 500, rows: 1 });
    expect(state.resizes.at(-1)).toEqual({ cols: 500, rows: 1 });
    await s.finish('closed');
  });
});
