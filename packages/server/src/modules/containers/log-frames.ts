import type { LogLine } from '@berth/contracts';

const STREAMS = { 1: 'stdout', 2: 'stderr' } as const;

/**
 * Splits the engine's log answer into lines. Without a TTY the engine multiplexes stdout
 * and stderr in frames (1 byte stream, 3 zero bytes, 4 bytes big-endian length); with a
 * TTY the bytes come raw. A buffer whose first header is not a valid frame is read raw.
 */
export function parseLogBuffer(buffer: Buffer): LogLine[] {
  const chunks: { stream: LogLine['stream']; text: string }[] = [];
  if (isFramed(buffer)) {
    let offset = 0;
    while (offset + 8 <= buffer.length) {
      const type = buffer[offset] ?? 1;
      const size = buffer.readUInt32BE(offset + 4);
      const body = buffer.subarray(offset + 8, offset + 8 + size);
      chunks.push({ stream: type === 2 ? STREAMS[2] : STREAMS[1], text: body.toString('utf8') });
      offset += 8 + size;
    }
  } else {
    chunks.push({ stream: 'stdout', text: buffer.toString('utf8') });
  }
  const lines: LogLine[] = [];
  for (const { stream, text } of chunks) {
    for (const raw of text.split('\n')) {
      if (raw === '') continue;
      lines.push({ ...splitTimestamp(raw.replace(/\r$/, '')), stream });
    }
  }
  return lines;
}

function isFramed(buffer: Buffer): boolean {
  if (buffer.length < 8) return false;
  const type = buffer[0];
  return (
    (type === 0 || type === 1 || type === 2) &&
    buffer[1] === 0 &&
    buffer[2] === 0 &&
    buffer[3] === 0 &&
    buffer.readUInt32BE(4) <= buffer.length - 8
  );
}

/** `timestamps=true` prefixes each line with an RFC 3339 time and a space. */
function splitTimestamp(line: string): { timestamp: string | null; log: string } {
  const match = /^(\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})) (.*)$/s.exec(line);
  return match
    ? { timestamp: match[1] ?? null, log: match[2] ?? '' }
    : { timestamp: null, log: line };
}
