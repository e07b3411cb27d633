import { SHORT_ID_LENGTH, type Image, type ImageDetails, type ImageUser } from '@berth/contracts';
import type { ContainerSummary } from '../../docker/index.js';
import type { ImageHistoryItem, ImageInspect, ImageSummary } from '../../docker/engine-images.js';

/** The engine's placeholder for "no tag" and "no digest". */
const NONE_TAG = '<none>:<none>';
const NONE_DIGEST = '<none>@<none>';

/** `sha256:` and its hex digits, whatever form the id came in. */
export const fullImageId = (id: string): string => (id.startsWith('sha256:') ? id : `sha256:${id}`);
export const shortImageId = (id: string): string =>
  id.replace(/^sha256:/, '').slice(0, SHORT_ID_LENGTH);

const isoOf = (unixSeconds: number): string =>
  new Date((Number.isFinite(unixSeconds) ? unixSeconds : 0) * 1000).toISOString();

/** The containers of a host by the id of the image each runs. */
export function usersByImage(containers: readonly ContainerSummary[]): Map<string, ImageUser[]> {
  const out = new Map<string, ImageUser[]>();
  for (const c of containers) {
    const imageId = c.ImageID;
    if (imageId === '') continue;
    const list = out.get(imageId) ?? [];
    list.push({
      id: c.Id.slice(0, SHORT_ID_LENGTH),
      name: (c.Names[0] ?? c.Id).replace(/^\//, ''),
      // The summary's state, which Berth's ContainerSummary type leaves unnamed.
      state: (c as { State?: string }).State ?? 'unknown',
    });
    out.set(imageId, list);
  }
  return out;
}

/** One engine summary as the API lists it. */
export function imageOf(
  host: { id: string; name: string },
  info: ImageSummary,
  users: ReadonlyMap<string, ImageUser[]>,
): Image {
  const tags = (info.RepoTags ?? []).filter((t) => t !== NONE_TAG);
  const usedBy = users.get(info.Id) ?? [];
  return {
    host_id: host.id,
    host_name: host.name,
    id: info.Id,
    short_id: shortImageId(info.Id),
    tags,
    digests: (info.RepoDigests ?? []).filter((d) => d !== NONE_DIGEST),
    size: info.Size,
    created: isoOf(info.Created),
    used_by: usedBy,
    dangling: tags.length === 0,
    unused: usedBy.length === 0,
  };
}

const keysOf = (record: Record<string, unknown> | null | undefined): string[] =>
  Object.keys(record ?? {}).sort();

/** The inspect and history answers as the details dialog shows them. */
export function detailsOf(
  image: Image,
  inspect: ImageInspect,
  history: readonly ImageHistoryItem[],
): ImageDetails {
  const config = inspect.Config ?? {};
  return {
    image,
    architecture: inspect.Architecture ?? '',
    os: inspect.Os ?? '',
    author: inspect.Author ?? '',
    config: {
      cmd: config.Cmd ?? null,
      entrypoint: config.Entrypoint ?? null,
      env: config.Env ?? [],
      working_dir: config.WorkingDir ?? '',
      user: config.User ?? '',
      exposed_ports: keysOf(config.ExposedPorts),
      volumes: keysOf(config.Volumes),
      labels: config.Labels ?? {},
    },
    layers: inspect.RootFS?.Layers?.length ?? 0,
    history: history.map((h) => ({
      created: h.Created > 0 ? isoOf(h.Created) : null,
      created_by: h.CreatedBy,
      size: h.Size,
      comment: h.Comment,
      tags: (h.Tags ?? []).filter((t) => t !== NONE_TAG),
    })),
  };
}

/** The summary of an image the list has not got (inspect alone), for its details. */
export function imageFromInspect(
  host: { id: string; name: string },
  inspect: ImageInspect,
  users: ReadonlyMap<string, ImageUser[]>,
): Image {
  return imageOf(
    host,
    {
      Id: inspect.Id,
      ParentId: '',
      RepoTags: inspect.RepoTags ?? [],
      RepoDigests: inspect.RepoDigests ?? [],
      Created: Math.floor(Date.parse(inspect.Created ?? '') / 1000),
      Size: inspect.Size ?? 0,
      VirtualSize: inspect.Size ?? 0,
      SharedSize: -1,
      Labels: inspect.Config?.Labels ?? {},
      Containers: -1,
    },
    users,
  );
}
