import { PassThrough, type Readable } from 'node:stream';
import type { ImagePullLine } from '@berth/contracts';
import type { AuditRecord } from '../audit/index.js';
import { parseImageRef, PullProgress, type LayerProgress } from '../updates/index.js';
import { conflict } from '../../platform/http-errors.js';
import { engineRefusal, type ImagesService } from './images.service.js';

/** Progress lines at most this often; the last one always goes. */
const PROGRESS_EVERY_MS = 250;

export interface ImagePullDeps {
  images: ImagesService;
  /** The updates module's registry credentials for a registry as images name it. */
  credentialsFor: (registry: string) => Promise<{ username: string; password: string } | null>;
  audit?: { record(entry: AuditRecord): void };
}

const line = (l: ImagePullLine): string => `${JSON.stringify(l)}\n`;
const progressLine = (p: LayerProgress): string =>
  line({
    type: 'progress',
    overall_progress: p.overall_progress,
    summary: p.summary,
    layers: p.layers,
    speed_mbps: p.speed_mbps,
  });

/**
 * Pulls by reference with the registry credentials updates keep, answering a stream of
 * progress lines (contracts' ImagePullLine). A failure before the engine's first progress
 * event (unknown image, refused credentials, bad reference) is an error answer instead, so
 * the request's status, and its audit row, say how it went.
 */
export class ImagePulls {
  /** `host reference` of the pulls under way, so the same pull is not started twice. */
  private readonly running = new Set<string>();

  constructor(private readonly deps: ImagePullDeps) {}

  /** Whether a pull of anything is under way on the host (tests and the bench read it). */
  pullingOn(hostId: string): boolean {
    return [...this.running].some((key) => key.startsWith(`${hostId} `));
  }

  async start(
    hostId: string,
    reference: string,
    who: { actor: string; apiKey: string | null },
  ): Promise<Readable> {
    const { host, engine } = this.deps.images.engineOf(hostId, 'action');
    const key = `${hostId} ${reference}`;
    if (this.running.has(key))
      throw conflict(`A pull of ${reference} is already running on ${host.name}`);
    const ref = parseImageRef(reference);
    const creds = await this.deps.credentialsFor(ref.registry);
    const auth = creds === null ? null : { ...creds, serveraddress: ref.registry };
    const audit = (error: string | null) =>
      this.deps.audit?.record({
        source: 'api',
        actor: who.actor,
        api_key: who.apiKey,
        action: 'image.pull',
        host_id: host.id,
        host_name: host.name,
        target: `image ${reference}`.slice(0, 200),
        error,
      });

    const out = new PassThrough();
    const progress = new PullProgress();
    let last = 0;
    let started!: () => void;
    const firstEvent = new Promise<void>((resolve) => (started = resolve));
    this.running.add(key);
    const pull = engine.pullImage(reference, auth, (event) => {
      progress.add(event);
      started();
      const now = Date.now();
      // A browser that went away leaves the engine to finish the pull on its own.
      if (now - last < PROGRESS_EVERY_MS || out.writableEnded || out.destroyed) return;
      last = now;
      out.write(progressLine(progress.snapshot()));
    });
    const ended = pull.finally(() => this.running.delete(key));
    try {
      await Promise.race([firstEvent, ended]);
    } catch (err) {
      const refusal = engineRefusal(err, `pull ${reference}`, host.name);
      audit(refusal.message);
      throw refusal;
    }
    ended
      .then(
        async () => {
          if (!out.destroyed) out.write(progressLine(progress.finished()));
          const id = await engine.describeImage(reference).then(
            (i) => i.Id,
            () => null,
          );
          audit(null);
          out.end(line({ type: 'done', reference, image_id: id }));
        },
        (err: unknown) => {
          const detail = engineRefusal(err, `pull ${reference}`, host.name).message;
          audit(detail);
          out.end(line({ type: 'error', detail }));
        },
      )
      // Ends the answer; an error here must not be thrown at a reader that may be gone.
      .catch(() => out.destroy());
    return out;
  }
}
