import { releaseFeedSchema, type ReleaseFeed } from '@berth/contracts';
import { isNewerVersion } from './semver.js';

export interface ReleaseFeedOptions {
  /** The feed's address; null turns checks off. */
  url: string | null;
  /** The running version. */
  currentVersion: string;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
  };
  /** The whole request, headers and body, must finish within this. */
  timeoutMs?: number;
  /** A larger answer is refused (a feed is a few hundred bytes). */
  maxBytes?: number;
  intervalMs?: number;
}

/** What the last check found, for the log and the tests. */
export type ReleaseCheck =
  | { outcome: 'newer'; release: ReleaseFeed }
  | { outcome: 'not-newer'; reason: string }
  | { outcome: 'failed'; reason: string };

const DAY_MS = 86_400_000;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 64 * 1024;

/**
 * Berth's own releases: reads the feed at start and once a day. Only a valid answer naming a
 * newer version than the running one is kept; anything else (unreachable, slow, too large,
 * not JSON, missing fields, an older or equal version) leaves no release and logs why. A failed
 * check keeps what an earlier check found, so one bad night does not hide a known release.
 */
export class ReleaseFeedChecker {
  private latest: ReleaseFeed | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<ReleaseCheck> | null = null;

  constructor(private readonly opts: ReleaseFeedOptions) {}

  /** The newest release that is newer than the running version, if one is known. */
  newerRelease(): ReleaseFeed | null {
    return this.latest;
  }

  start(): void {
    if (this.opts.url === null || this.timer !== null) return;
    const run = () => {
      this.check().catch(() => undefined);
    };
    run();
    this.timer = setInterval(run, this.opts.intervalMs ?? DAY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** One check now; a check under way is joined. */
  check(): Promise<ReleaseCheck> {
    this.running ??= this.checkOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async checkOnce(): Promise<ReleaseCheck> {
    const url = this.opts.url;
    if (url === null) return { outcome: 'failed', reason: 'no release feed configured' };
    const result = await this.read(url);
    if (result.outcome === 'newer') {
      this.latest = result.release;
      this.opts.log.info(
        { version: result.release.version, running: this.opts.currentVersion },
        'a newer Berth release is available',
      );
    } else if (result.outcome === 'not-newer') {
      this.latest = null;
      this.opts.log.info({ feed: url, reason: result.reason }, 'no newer Berth release');
    } else {
      this.opts.log.warn({ feed: url, reason: result.reason }, 'release feed check failed');
    }
    return result;
  }

  private async read(url: string): Promise<ReleaseCheck> {
    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = this.opts.maxBytes ?? DEFAULT_MAX_BYTES;
    let text: string;
    try {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
        redirect: 'follow',
      });
      if (!res.ok) {
        await res.body?.cancel();
        return { outcome: 'failed', reason: `answered HTTP ${res.status}` };
      }
      text = await readCapped(res, maxBytes);
    } catch (err) {
      return { outcome: 'failed', reason: describeFetchError(err, timeoutMs, maxBytes) };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { outcome: 'failed', reason: 'the answer is not JSON' };
    }
    const parsed = releaseFeedSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'answer';
      return { outcome: 'failed', reason: `malformed answer: ${field}: ${issue?.message ?? ''}` };
    }
    const release = { ...parsed.data, version: parsed.data.version.replace(/^v/, '') };
    if (!isNewerVersion(release.version, this.opts.currentVersion)) {
      return {
        outcome: 'not-newer',
        reason: `the feed's version ${release.version} is not newer than ${this.opts.currentVersion}`,
      };
    }
    return { outcome: 'newer', release };
  }
}

class TooLarge extends Error {}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new TooLarge();
  }
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // The stream's chunk type is not known to every lib setup: it is bytes from fetch.
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done || value === undefined) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new TooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeFetchError(err: unknown, timeoutMs: number, maxBytes: number): string {
  if (err instanceof TooLarge) return `the answer is larger than ${maxBytes} bytes`;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : '';
  const message = err instanceof Error ? err.message : String(err);
  return `unreachable: ${cause || message}`;
}
