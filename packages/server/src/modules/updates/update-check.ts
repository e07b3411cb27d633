import type { FloatingTagMode } from '@berth/contracts';
import type { Engine } from '../../docker/index.js';
import {
  formatRef,
  parseImageRef,
  platformOf,
  RegistryClient,
  RegistryError,
  type ImageRef,
  type ManifestInfo,
  type Platform,
} from './registry.js';
import { newestTag } from './versions.js';

/** What one container's check found. */
export type CheckOutcome =
  | {
      kind: 'checked';
      updateAvailable: boolean;
      currentDigest: string | null;
      latestImage: string;
      latestDigest: string;
      /** The best version was the one that failed before: not offered. */
      suppressedFailed: boolean;
    }
  | { kind: 'local'; reason: string }
  | { kind: 'error'; message: string };

/**
 * One check pass (a manual check, a batch, the daily run): registry answers are cached per
 * repository and tag for the pass, so 300 containers of one image cost one tag list and one
 * manifest, not 300. Engine platforms are cached per engine.
 */
export class CheckRun {
  private readonly tags = new Map<string, Promise<string[]>>();
  private readonly manifests = new Map<string, Promise<ManifestInfo>>();
  private readonly platforms = new Map<Engine, Promise<Platform>>();

  constructor(
    readonly registry: RegistryClient,
    /** Who asked: a user's check finds updates but never notifies (only the schedule does). */
    readonly trigger: 'manual' | 'scheduled' = 'manual',
  ) {}

  get requests(): number {
    return this.registry.requests;
  }

  private cached<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
    let p = map.get(key);
    if (p === undefined) {
      p = load();
      map.set(key, p);
    }
    return p;
  }

  listTags(ref: ImageRef): Promise<string[]> {
    return this.cached(this.tags, `${ref.registry}/${ref.repository}`, () =>
      this.registry.listTags(ref),
    );
  }

  manifest(ref: ImageRef, tag: string, platform: Platform): Promise<ManifestInfo> {
    const key = `${ref.registry}/${ref.repository}:${tag}|${platform.os}/${platform.architecture}`;
    return this.cached(this.manifests, key, () => this.registry.manifest(ref, tag, platform));
  }

  private readonly listings = new Map<
    Engine,
    Promise<Map<string, { Image: string; ImageID: string }>>
  >();
  private readonly digests = new Map<string, Promise<string[]>>();

  /**
   * The image a container was created from and the id it runs: one container list per
   * engine per run (not an inspect per container); a container the list missed is inspected.
   */
  async containerImage(
    engine: Engine,
    fullId: string,
  ): Promise<{ imageRef: string; imageId: string }> {
    let listing = this.listings.get(engine);
    if (listing === undefined) {
      listing = engine
        .listContainers()
        .then((all) => new Map(all.map((c) => [c.Id, { Image: c.Image, ImageID: c.ImageID }])));
      this.listings.set(engine, listing);
    }
    const listed = (await listing).get(fullId);
    // The list names the image by id when its tag moved to another image; inspect then.
    if (listed !== undefined && !listed.Image.startsWith('sha256:'))
      return { imageRef: listed.Image, imageId: listed.ImageID };
    const info = await engine.inspectContainer(fullId);
    return { imageRef: info.Config.Image, imageId: info.Image };
  }

  /** RepoDigests of an image, inspected once per engine and image per run. */
  repoDigests(engine: Engine, imageId: string): Promise<string[]> {
    let engineKey = this.engineKeys.get(engine);
    if (engineKey === undefined) {
      engineKey = String(this.engineKeys.size);
      this.engineKeys.set(engine, engineKey);
    }
    return this.cached(this.digests, `${engineKey}|${imageId}`, () =>
      engine.inspectImage(imageId).then((i) => i.RepoDigests),
    );
  }

  private readonly engineKeys = new Map<Engine, string>();

  platform(engine: Engine): Promise<Platform> {
    let p = this.platforms.get(engine);
    if (p === undefined) {
      p = engine.info().then((info) => platformOf(info));
      this.platforms.set(engine, p);
    }
    return p;
  }

  /**
   * Checks one image. `imageRef` is the container's configured image, `imageId` the id of
   * the image it runs, `repoDigests` that image's RepoDigests.
   */
  async check(args: {
    engine: Engine;
    imageRef: string;
    imageId: string;
    repoDigests: string[];
    mode: FloatingTagMode;
    failedDigest: string | null;
  }): Promise<CheckOutcome> {
    const ref = parseImageRef(args.imageRef);
    if (ref.digest !== null) return { kind: 'local', reason: 'Pinned by digest: nothing to track' };
    if (/^sha256:/.test(args.imageRef))
      return { kind: 'local', reason: 'Local image: no registry digest to compare' };
    const repoPrefixes = repoNames(ref);
    const currentDigest =
      args.repoDigests
        .map((d) => d.split('@'))
        .find(([name]) => name !== undefined && repoPrefixes.includes(name))?.[1] ?? null;
    if (currentDigest === null)
      return { kind: 'local', reason: 'Local image: no registry digest to compare' };
    try {
      const platform = await this.platform(args.engine);
      let target = ref.tag;
      if (args.mode !== 'exact') {
        const newer = newestTag(ref.tag, await this.listTags(ref), args.mode);
        if (newer !== null) target = newer;
      }
      const latest = await this.manifest(ref, target, platform);
      // The same image: the tag's digest is the one we pulled, or (a manifest list that moved
      // only for other platforms) the platform's config is the image we run.
      const same =
        latest.digest === currentDigest ||
        (latest.configDigest !== null && latest.configDigest === args.imageId);
      const suppressedFailed = !same && latest.digest === args.failedDigest;
      return {
        kind: 'checked',
        updateAvailable: !same && !suppressedFailed,
        currentDigest,
        latestImage: formatRef(ref, target),
        latestDigest: latest.digest,
        suppressedFailed,
      };
    } catch (err) {
      if (err instanceof RegistryError) return { kind: 'error', message: err.message };
      const e = err as { json?: { message?: unknown }; message?: string };
      const m = e.json?.message;
      return { kind: 'error', message: typeof m === 'string' ? m : String(e.message ?? err) };
    }
  }
}

/** The names RepoDigests may use for this repository (`nginx`, `docker.io/library/nginx`). */
function repoNames(ref: ImageRef): string[] {
  const full = `${ref.registry}/${ref.repository}`;
  const short = formatRef(ref, 'x').replace(/:x$/, '');
  return [...new Set([full, short])];
}
