import { afterEach, describe, expect, it } from 'vitest';
import { httpEngine, silentEngine, type FakeEngine } from '../test/fake-engines.js';
import { CappedLines } from './capped-lines.js';
import { describeEngineError, openEngineEvents, type EngineEvent } from './index.js';

const KiB = 1024;
const limits = { connectTimeoutMs: 1000, firstByteTimeoutMs: 1000 };
const query = { since: 0, filters: { type: ['container'] } };
let fake: FakeEngine | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const event = (id: string) =>
  JSON.stringify({
    Type: 'container',
    Action: 'start',
    Actor: { ID: id, Attributes: {} },
    time: 1,
    timeNano: 1e9,
  }) + '\n';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CappedLines', () => {
  it('splits across chunks and drops only the line over the cap', () => {
    const drops: number[] = [];
    const lines = new CappedLines(8, (n) => drops.push(n));
    expect(lines.push(Buffer.from('ab'))).toEqual([]);
    expect(lines.push(Buffer.from('c\r\nxxxxx'))).toEqual(['abc']);
    expect(lines.push(Buffer.from('yyyyy'))).toEqual([]); // 10 bytes: over the cap
    expect(lines.push(Buffer.from('zz\nok\n'))).toEqual(['ok']);
    expect(drops).toEqual([1]);
    expect(lines.dropped).toBe(1);
  });
});

describe('openEngineEvents', () => {
  it('drops a 1 MiB line unbuffered and delivers the next one', async () => {
    fake = await httpEngine((path, res) => {
      if (!path.includes('/events')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      const big = Buffer.alloc(KiB * KiB, 'x');
      res.write(big.subarray(0, 1));
      res.write(big); // one line of 1 MiB
      res.write('\n' + event('second'));
    });
    const seen: EngineEvent[] = [];
    const dropped: number[] = [];
    const stream = await openEngineEvents(fake, query, limits, {
      onEvent: (e) => seen.push(e),
      onError: () => undefined,
      onEnd: () => undefined,
      onDroppedLine: (n) => dropped.push(n),
    });
    for (let i = 0; i < 50 && seen.length === 0; i++) await sleep(20);
    stream.close();
    expect(seen.map((e) => e.Actor.ID)).toEqual(['second']);
    expect(dropped).toEqual([1]);
    expect(stream.droppedLines).toBe(1);
  });

  it('stays open on a quiet stream once the headers came', async () => {
    fake = await httpEngine((_path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
    });
    const failures: unknown[] = [];
    const stream = await openEngineEvents(fake, query, limits, {
      onEvent: () => undefined,
      onError: (err) => failures.push(err),
      onEnd: () => failures.push('end'),
    });
    await sleep(1800);
    stream.close();
    expect(failures).toEqual([]);
  });

  it('fails within the first-byte timeout when no headers come', async () => {
    fake = await silentEngine();
    const started = Date.now();
    const err = await openEngineEvents(fake, query, limits, {
      onEvent: () => undefined,
      onError: () => undefined,
      onEnd: () => undefined,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(describeEngineError(err, fake.url)).toBe('Engine did not answer within 1 s');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
