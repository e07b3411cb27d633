import type {
  Image,
  ImageDetails,
  ImagePrunePreview,
  ImagePruneResponse,
  ImageRemoveResponse,
  ImagesResponse,
} from '@berth/contracts';
import { describeEngineError, type Engine } from '../../docker/index.js';
import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  notFound,
} from '../../platform/http-errors.js';
import type { Fleet, FleetHost } from '../monitor/index.js';
import { hostEngine } from '../volumes/index.js';
import { fullImageId, detailsOf, imageFromInspect, imageOf, usersByImage } from './image-view.js';

/** How long a host may take to list its images and containers before the list goes without it. */
const LIST_TIMEOUT_MS = 15_000;

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

/** The engine's own words, when it answered with a message. */
export const engineMessage = (err: unknown): string | null => {
  const reason = (err as { json?: { message?: unknown } }).json?.message;
  return typeof reason === 'string' ? reason : null;
};

/** An engine failure as a 4xx with the engine's words; nothing here is Berth's own fault. */
export function engineRefusal(err: unknown, what: string, hostName: string): HttpError {
  if (err instanceof HttpError) return err;
  const status = (err as { statusCode?: unknown }).statusCode;
  const reason = engineMessage(err);
  if (status === 404) return notFound(reason ?? 'Image not found');
  if (status === 400 && reason !== null) return badRequest(reason);
  // A read-only agent (or an authorization plugin) refuses the change: a 403 with its words.
  if (status === 403 && reason !== null) return forbidden(reason);
  if (reason !== null) return conflict(reason);
  return conflict(`Failed to ${what} on ${hostName}: ${describeEngineError(err, hostName)}`);
}

/** Images of the fleet's hosts: list, inspect, remove, prune. Pulls are image-pull.ts's. */
export class ImagesService {
  constructor(private readonly fleet: Fleet) {}

  /** A known host and its engine for `purpose`; 404 or 409 (offline) otherwise. */
  engineOf(hostId: string, purpose: 'query' | 'action'): { host: FleetHost; engine: Engine } {
    return hostEngine(this.fleet, hostId, purpose);
  }

  /** One host's images with the containers that use each. */
  async hostImages(hostId: string): Promise<Image[]> {
    const { host, engine } = this.engineOf(hostId, 'query');
    try {
      const [images, containers] = await withTimeout(
        Promise.all([engine.listImages(), engine.listContainers()]),
        LIST_TIMEOUT_MS,
        `Listing images on ${host.name}`,
      );
      const users = usersByImage(containers);
      return images.map((info) => imageOf(host, info, users));
    } catch (err) {
      throw engineRefusal(err, 'list images', host.name);
    }
  }

  /**
   * The images of every host `reaches` allows, or of `hostId` alone; a host that cannot
   * answer is named in `failed_hosts` rather than failing the whole list.
   */
  async list(
    hostId: string | undefined,
    reaches: (id: string) => boolean,
  ): Promise<ImagesResponse> {
    if (hostId !== undefined && (!reaches(hostId) || this.fleet.host(hostId) === undefined))
      throw notFound('host: no such host');
    const hosts = this.fleet
      .hosts()
      .filter((h) => (hostId === undefined ? reaches(h.id) : h.id === hostId));
    const answers = await Promise.allSettled(hosts.map((h) => this.hostImages(h.id)));
    const out: ImagesResponse = { images: [], failed_hosts: [] };
    answers.forEach((a, i) => {
      const host = hosts[i];
      if (host === undefined) return;
      if (a.status === 'fulfilled') out.images.push(...a.value);
      else
        out.failed_hosts.push({
          host_id: host.id,
          host_name: host.name,
          error: a.reason instanceof Error ? a.reason.message : String(a.reason),
        });
    });
    return out;
  }

  /** Inspect and history of one image, with who uses it. */
  async details(hostId: string, imageId: string): Promise<ImageDetails> {
    const { host, engine } = this.engineOf(hostId, 'query');
    const id = fullImageIdOf(imageId);
    try {
      const [inspect, history, containers] = await Promise.all([
        engine.describeImage(id),
        engine.imageHistory(id),
        engine.listContainers(),
      ]);
      const image = imageFromInspect(host, inspect, usersByImage(containers));
      return detailsOf(image, inspect, history);
    } catch (err) {
      throw engineRefusal(err, 'inspect the image', host.name);
    }
  }

  /**
   * Removes the image (all its tags). Without `force` an image a container uses is refused
   * by the engine, in its words (409); a running container's image cannot be forced either.
   */
  async remove(hostId: string, imageId: string, force: boolean): Promise<ImageRemoveResponse> {
    const { host, engine } = this.engineOf(hostId, 'action');
    try {
      const answer = await engine.removeImage(fullImageIdOf(imageId), { force });
      return {
        untagged: answer.flatMap((r) => (r.Untagged === undefined ? [] : [r.Untagged])),
        deleted: answer.flatMap((r) => (r.Deleted === undefined ? [] : [r.Deleted])),
      };
    } catch (err) {
      throw engineRefusal(err, 'remove the image', host.name);
    }
  }

  /**
   * What a prune would remove, from the list: dangling images no container uses (the engine's
   * own rule). The space is the images' sizes; shared layers may make the real figure smaller.
   */
  async prunePreview(hostId: string): Promise<ImagePrunePreview> {
    const images = (await this.hostImages(hostId)).filter((i) => i.dangling && i.unused);
    return {
      count: images.length,
      space: images.reduce((sum, i) => sum + i.size, 0),
      images: images.map((i) => ({ id: i.id, size: i.size, created: i.created })),
    };
  }

  /**
   * The engine's prune of dangling images. A pull under way is safe: its image is tagged as
   * it is stored, so it is never dangling, and the engine keeps its layers' content leased.
   */
  async prune(hostId: string): Promise<ImagePruneResponse> {
    const { host, engine } = this.engineOf(hostId, 'action');
    try {
      const answer = await engine.pruneDanglingImages();
      const deleted = (answer.ImagesDeleted ?? []).flatMap((r) =>
        r.Deleted === undefined ? [] : [r.Deleted],
      );
      return { count: deleted.length, deleted, space_reclaimed: answer.SpaceReclaimed };
    } catch (err) {
      throw engineRefusal(err, 'prune images', host.name);
    }
  }
}

/** A short id stays short (the engine resolves its prefix); a long one gets its `sha256:`. */
const fullImageIdOf = (id: string): string => (id.length >= 64 ? fullImageId(id) : id);
