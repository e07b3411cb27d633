import { describe, expect, it } from 'vitest';
import { LINE_CUT_MARKER, LogFrameReader, parseLogBuffer } from './log-frames.js';

const frame = (stream: 1 | 2, text: string | Buffer) => {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
};
const TS = '2024-05-01T10:00:00.000000000Z';

describe('parseLogBuffer', () => {
  it('reads multiplexed stdout and stderr with their timestamps', () => {
    const lines = parseLogBuffer(
      Buffer.concat([frame(1, `${TS} hello\n`), frame(2, `${TS} oops\r\n`)]),
    );
    expect(lines).toEqual([
      { timestamp: TS, log: 'hello', stream: 'stdout' },
      { timestamp: TS, log: 'oops', stream: 'stderr' },
    ]);
  });

  it('reads a TTY answer raw', () => {
    expect(parseLogBuffer(Buffer.from(`${TS} one\n${TS} two\n`)).map((l) => l.log)).toEqual([
      'one',
      'two',
    ]);
  });

  it('cuts a line over 64 KiB at 64 KiB with a marker, and reads on', () => {
    const long = `${TS} ${'x'.repeat(200 * 1024)}\n`;
    const lines = parseLogBuffer(Buffer.concat([frame(1, long), frame(1, `${TS} next\n`)]));
    expect(lines).toHaveLength(2);
    const first = lines[0];
    expect(first?.timestamp).toBe(TS);
    expect(first?.log.endsWith(LINE_CUT_MARKER)).toBe(true);
    expect(Buffer.byteLength(`${TS} ${first?.log ?? ''}`)).toBe(
      64 * 1024 + Buffer.byteLength(LINE_CUT_MARKER),
    );
    expect(lines[1]?.log).toBe('next');
  });

  it('never cuts inside a multi-byte character', () => {
    const text = 'é'.repeat(40 * 1024); // 2 bytes each: 80 KiB
    const [line] = parseLogBuffer(frame(1, `${text}\n`));
    expect(line?.log).toBe('é'.repeat(32 * 1024) + LINE_CUT_MARKER);
  });
});

describe('LogFrameReader', () => {
  it('joins frames and headers split anywhere across chunks', () => {
    const whole = Buffer.concat([frame(1, `${TS} part`), frame(1, 'ial\n'), frame(2, 'err\n')]);
    const reader = new LogFrameReader();
    for (let i = 0; i < whole.length; i += 3) reader.push(whole.subarray(i, i + 3));
    expect(reader.end().map((l) => [l.stream, l.log])).toEqual([
      ['stdout', 'partial'],
      ['stderr', 'err'],
    ]);
  });

  it('drops the oldest lines past the answer cap, with a marker', () => {
    const reader = new LogFrameReader({ maxLineBytes: 100, maxAnswerBytes: 51, maxReadBytes: 1e6 });
    for (let i = 0; i < 10; i++) reader.push(frame(1, `line ${i} ${'y'.repeat(10)}\n`));
    const lines = reader.end();
    expect(lines[0]?.log).toMatch(/^… \[7 older lines dropped/);
    expect(lines.slice(1).map((l) => l.log.slice(0, 6))).toEqual(['line 7', 'line 8', 'line 9']);
  });

  it('asks to stop once the read cap is reached', () => {
    const reader = new LogFrameReader({ maxLineBytes: 100, maxAnswerBytes: 1e6, maxReadBytes: 64 });
    expect(reader.push(frame(1, 'a\n'.repeat(10)))).toBe(true);
    expect(reader.push(frame(1, 'b\n'.repeat(30)))).toBe(false);
    expect(reader.end().at(-1)?.log).toMatch(/logs cut/);
  });
});
