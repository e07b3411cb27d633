import { PassThrough, type Readable } from 'node:stream';
import type { ImagePullLine } from '@berth/contracts';
import type { AuditRecord } from '../audit/index.js';
import { parseImageRef, PullProgress, type LayerProgress } from '../updates/index.js';
import { conflict, notFound } from '../../platform/http-errors.js';
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
  /**
   * The pulls under way by `host reference` (the same pull is not started twice), each with
   * what cancels it and who did.
   */
  private readonly running = new Map<string, { cancel: AbortController; by: string | null }>();

  constructor(private readonly deps: ImagePullDeps) {}

  /** Whether a pull of anything is under way on the host (tests and the bench read it). */
  pullingOn(hostId: string): boolean {
    return [...this.running.keys()].some((key) => key.startsWith(`${hostId} `));
  }

  /**
   * Cancels a pull under way (an operator's Cancel, whoever started it): the engine stops
   * downloading, its answer ends with an error line saying so, and the audit row says who.
   */
  cancel(hostId: string, reference: string, actor: string): void {
    const { host } = this.deps.images.engineOf(hostId, 'action');
    const pull = this.running.get(`${hostId} ${reference}`);
    if (pull === undefined) throw notFound(`No pull of ${reference} is running on ${host.name}`);
    pull.by = actor;
    pull.cancel.abort();
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
    const running = { cancel: new AbortController(), by: null as string | null };
    this.running.set(key, running);
    const cancelled = () =>
      running.cancel.signal.aborted
        ? `The pull of ${reference} was cancelled by ${running.by}`
        : null;
    const pull = engine.pullImage(
      reference,
      auth,
      (event) => {
        progress.add(event);
        started();
        const now = Date.now();
        // A browser that went away leaves the engine to finish the pull on its own.
        if (now - last < PROGRESS_EVERY_MS || out.writableEnded || out.destroyed) return;
        last = now;
        out.write(progressLine(progress.snapshot()));
      },
      running.cancel.signal,
    );
    const ended = pull.finally(() => this.running.delete(key));
    try {
      await Promise.race([firstEvent, ended]);
    } catch (err) {
      const why = cancelled();
      const refusal =
        why === null ? engineRefusal(err, `pull ${reference}`, host.name) : conflict(why);
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
          const detail = cancelled() ?? engineRefusal(err, `pull ${reference}`, host.name).message;
          audit(detail);
          out.end(line({ type: 'error', detail }));
        },
      )
      // Ends the answer; an error here must not be thrown at a reader that may be gone.
      .catch(() => out.destroy());
    return out;
  }
}
