import { CappedLines } from './capped-lines.js';
import { createEngineClient, type EngineEndpoint } from './engine-client.js';
import { EngineError } from './engine-errors.js';

/** One message of the engine's /events stream (container events only). */
export interface EngineEvent {
  Type: string;
  Action: string;
  Actor: { ID: string; Attributes: Record<string, string | undefined> };
  time: number;
  timeNano: number;
}

/** A container event is a few hundred bytes; 64 KiB leaves room for many labels. */
export const MAX_EVENT_LINE_BYTES = 64 * 1024;

/** Splits the NDJSON event stream into events; a line over the cap is dropped unread. */
export class EventLineParser {
  private readonly lines: CappedLines;

  constructor(maxLineBytes = MAX_EVENT_LINE_BYTES, onDrop?: (dropped: number) => void) {
    this.lines = new CappedLines(maxLineBytes, onDrop);
  }

  /** Lines dropped for being over the cap. */
  get dropped(): number {
    return this.lines.dropped;
  }

  push(chunk: Buffer): EngineEvent[] {
    const events: EngineEvent[] = [];
    for (const line of this.lines.push(chunk)) {
      const event = parseEvent(line);
      if (event !== null) events.push(event);
    }
    return events;
  }
}

function parseEvent(line: string): EngineEvent | null {
  if (line.trim() === '') return null;
  try {
    const parsed = JSON.parse(line) as Partial<EngineEvent> | null;
    return typeof parsed?.Action === 'string' &&
      typeof parsed.Actor === 'object' &&
      typeof parsed.timeNano === 'number'
      ? (parsed as EngineEvent)
      : null;
  } catch {
    return null; // a garbled line is skipped; the stream goes on
  }
}

export interface EngineEventQuery {
  /** Unix seconds: replay what happened since then. */
  since: number;
  /**
   * Unix seconds: the engine ends the stream once it reaches this time (a time already past:
   * once it has sent what it had), and `onEnd` reports that normal end. Without it the
   * stream is followed until it is closed.
   */
  until?: number;
  filters: Record<string, readonly string[]>;
}

export interface EngineEventLimits {
  connectTimeoutMs: number;
  /** Until the response headers; a stream may be quiet for as long as it likes afterwards. */
  firstByteTimeoutMs: number;
  maxLineBytes?: number;
}

export interface EngineEventHandlers {
  onEvent: (event: EngineEvent) => void;
  /** The stream failed after it opened. */
  onError: (err: unknown) => void;
  /** The engine ended the stream. */
  onEnd: () => void;
  /** A line over the cap was dropped; `dropped` counts them on this stream. */
  onDroppedLine?: (dropped: number) => void;
}

export interface EngineEventStream {
  /** Stops the stream; no handler is called afterwards. */
  close: () => void;
  /** Lines dropped for being over the cap. */
  readonly droppedLines: number;
}

/**
 * Opens GET /events with a connect and a first-byte timeout and resolves once the engine
 * answered with headers (so nothing after this moment is missed); then streams events.
 */
export async function openEngineEvents(
  endpoint: EngineEndpoint,
  query: EngineEventQuery,
  limits: EngineEventLimits,
  handlers: EngineEventHandlers,
): Promise<EngineEventStream> {
  const client = createEngineClient(endpoint, {
    timeoutMs: limits.firstByteTimeoutMs,
    connectTimeoutMs: limits.connectTimeoutMs,
  });
  const stream = (await client.getEvents({
    since: Math.floor(query.since),
    // Whole milliseconds print short ("<seconds>.<fraction>", which the engine reads).
    ...(query.until === undefined ? {} : { until: Math.round(query.until * 1000) / 1000 }),
    filters: JSON.stringify(query.filters),
  })) as NodeJS.ReadableStream & { destroy: () => void };
  const parser = new EventLineParser(limits.maxLineBytes, handlers.onDroppedLine);
  let open = true;
  const onData = (chunk: Buffer) => {
    for (const event of parser.push(chunk)) if (open) handlers.onEvent(event);
  };
  const finish = (report: () => void) => {
    if (!open) return;
    open = false;
    report();
  };
  stream.on('data', onData);
  stream.on('error', (err: unknown) => finish(() => handlers.onError(err)));
  stream.on('end', () => finish(handlers.onEnd));
  // A cut socket may close without 'end': for an endless stream that is an end like any
  // other, but a finite one (`until`) was cut short of what it had to send.
  const cutShort = () => handlers.onError(new EngineError('Event stream cut before its end'));
  stream.on('close', () => finish(query.until === undefined ? handlers.onEnd : cutShort));
  return {
    close: () => {
      open = false;
      stream.removeListener('data', onData);
      stream.on('error', () => undefined); // late socket errors after a close are expected
      stream.destroy();
    },
    get droppedLines() {
      return parser.dropped;
    },
  };
}
