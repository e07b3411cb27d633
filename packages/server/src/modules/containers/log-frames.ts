import type { LogLine } from '@berth/contracts';

const KiB = 1024;
const MiB = 1024 * KiB;
/** A longer line is cut here; the rest of it is read past, never kept. */
export const MAX_LOG_LINE_BYTES = 64 * KiB;
/** The lines kept from one answer; beyond it the oldest go (the newest matter most). */
export const MAX_LOG_ANSWER_BYTES = 32 * MiB;
/** Bytes read from the engine before the read stops (a tail of lines each cut short). */
export const MAX_LOG_READ_BYTES = 256 * MiB;
export const LINE_CUT_MARKER = ' … [line cut at 64 KiB]';

export interface LogLimits {
  maxLineBytes: number;
  maxAnswerBytes: number;
  maxReadBytes: number;
}

const DEFAULT_LIMITS: LogLimits = {
  maxLineBytes: MAX_LOG_LINE_BYTES,
  maxAnswerBytes: MAX_LOG_ANSWER_BYTES,
  maxReadBytes: MAX_LOG_READ_BYTES,
};

/** One stream's line in the making: at most `max` bytes are kept. */
class LineBuilder {
  private parts: Buffer[] = [];
  private size = 0;
  private cut = false;

  constructor(
    private readonly max: number,
    private readonly emit: (raw: Buffer, cut: boolean) => void,
  ) {}

  push(bytes: Buffer): void {
    let start = 0;
    for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, start)) {
      this.take(bytes.subarray(start, nl));
      this.flush();
      start = nl + 1;
    }
    this.take(bytes.subarray(start));
  }

  flush(): void {
    if (this.size > 0 || this.cut) this.emit(Buffer.concat(this.parts, this.size), this.cut);
    this.parts = [];
    this.size = 0;
    this.cut = false;
  }

  private take(piece: Buffer): void {
    if (this.cut || piece.length === 0) return;
    const room = this.max - this.size;
    if (piece.length > room) this.cut = true;
    const kept = piece.length > room ? piece.subarray(0, room) : piece;
    // Copied: a slice would keep the whole socket chunk alive with it.
    this.parts.push(Buffer.from(kept));
    this.size += kept.length;
  }
}

/**
 * Splits the engine's log answer into lines as it arrives. Without a TTY the engine
 * multiplexes stdout and stderr in frames (1 byte stream, 3 zero bytes, 4 bytes
 * big-endian length); with a TTY the bytes come raw. An answer whose first header is not
 * a valid frame is read raw. Memory stays bounded by the limits whatever the engine sends.
 */
export class LogFrameReader {
  private mode: 'unknown' | 'framed' | 'raw' = 'unknown';
  private pending = Buffer.alloc(0); // a frame header (or the first bytes) split across chunks
  private frameLeft = 0;
  private frameStream: LogLine['stream'] = 'stdout';
  private readonly builders: Record<LogLine['stream'], LineBuilder>;
  private kept: LogLine[] = [];
  private keptSizes: number[] = [];
  private keptBytes = 0;
  private dropped = 0;
  private read = 0;

  constructor(private readonly limits: LogLimits = DEFAULT_LIMITS) {
    const builder = (stream: LogLine['stream']) =>
      new LineBuilder(limits.maxLineBytes, (raw, cut) => this.keep(raw, cut, stream));
    this.builders = { stdout: builder('stdout'), stderr: builder('stderr') };
  }

  /** Feeds a chunk; false once the read cap is reached and no more should be read. */
  push(chunk: Buffer): boolean {
    this.read += chunk.length;
    if (this.mode === 'unknown') {
      this.pending = Buffer.concat([this.pending, chunk]);
      if (this.pending.length < 8) return true;
      this.mode = isFrameHeader(this.pending) ? 'framed' : 'raw';
      chunk = this.pending;
      this.pending = Buffer.alloc(0);
    }
    if (this.mode === 'raw') this.builders.stdout.push(chunk);
    else this.pushFramed(chunk);
    return this.read < this.limits.maxReadBytes;
  }

  /** The lines, oldest first, with a marker when some were dropped or the read stopped. */
  end(): LogLine[] {
    if (this.mode === 'unknown' && this.pending.length > 0) this.builders.stdout.push(this.pending);
    this.builders.stdout.flush();
    this.builders.stderr.flush();
    const lines = [...this.kept];
    if (this.dropped > 0) {
      lines.unshift(
        marker(
          `… [${this.dropped} older lines dropped: logs over ${size(this.limits.maxAnswerBytes)}]`,
        ),
      );
    }
    if (this.read >= this.limits.maxReadBytes)
      lines.push(marker(`… [logs cut: over ${size(this.limits.maxReadBytes)} read]`));
    return lines;
  }

  private pushFramed(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.frameLeft === 0) {
        const need = 8 - this.pending.length;
        this.pending = Buffer.concat([this.pending, chunk.subarray(offset, offset + need)]);
        offset += need;
        if (this.pending.length < 8) return;
        this.frameStream = this.pending[0] === 2 ? 'stderr' : 'stdout';
        this.frameLeft = this.pending.readUInt32BE(4);
        this.pending = Buffer.alloc(0);
        continue;
      }
      const body = chunk.subarray(offset, offset + this.frameLeft);
      this.builders[this.frameStream].push(body);
      offset += body.length;
      this.frameLeft -= body.length;
    }
  }

  private keep(raw: Buffer, cut: boolean, stream: LogLine['stream']): void {
    let text = utf8Prefix(raw);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text === '' && !cut) return;
    this.kept.push({ ...splitTimestamp(cut ? text + LINE_CUT_MARKER : text), stream });
    this.keptSizes.push(raw.length);
    this.keptBytes += raw.length;
    while (this.keptBytes > this.limits.maxAnswerBytes && this.kept.length > 1) {
      this.kept.shift();
      this.keptBytes -= this.keptSizes.shift() ?? 0;
      this.dropped++;
    }
  }
}

/** The whole answer at once (tests, small answers). */
export function parseLogBuffer(buffer: Buffer, limits: LogLimits = DEFAULT_LIMITS): LogLine[] {
  const reader = new LogFrameReader(limits);
  reader.push(buffer);
  return reader.end();
}

function isFrameHeader(bytes: Buffer): boolean {
  const type = bytes[0];
  return (
    (type === 0 || type === 1 || type === 2) && bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 0
  );
}

/** The text of `raw`, without a multi-byte character a cut split in two. */
function utf8Prefix(raw: Buffer): string {
  let end = raw.length;
  let back = 0;
  while (end - back > 0 && back < 4 && ((raw[end - back - 1] ?? 0) & 0xc0) === 0x80) back++;
  const lead = raw[end - back - 1] ?? 0;
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (lead >= 0xc0 && width > back + 1) end -= back + 1;
  return raw.subarray(0, end).toString('utf8');
}

const size = (bytes: number) =>
  bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${bytes} bytes`;
const marker = (log: string): LogLine => ({ timestamp: null, log, stream: 'stdout' });

/** `timestamps=true` prefixes each line with an RFC 3339 time and a space. */
function splitTimestamp(line: string): { timestamp: string | null; log: string } {
  const match = /^(\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})) (.*)$/s.exec(line);
  return match
    ? { timestamp: match[1] ?? null, log: match[2] ?? '' }
    : { timestamp: null, log: line };
}
