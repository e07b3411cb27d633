import {
  imageDetailsSchema,
  imagePruneResponseSchema,
  imagePrunePreviewSchema,
  imagePullLineSchema,
  imageRemoveResponseSchema,
  imagesResponseSchema,
  okSchema,
  type ImagePullLine,
} from '@berth/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, ApiError, NetworkError } from '@/lib/api-client';

/** Every key the images screens use starts with this. */
export const IMAGES_KEY = ['images'] as const;

/** The fleet's images, or one host's (`hostId`). */
export const imagesQueryOptions = (hostId: string | null) =>
  queryOptions({
    queryKey: [...IMAGES_KEY, 'list', hostId ?? 'all'],
    queryFn: () => api('/images', imagesResponseSchema, { params: { host: hostId ?? undefined } }),
    staleTime: 10_000,
    refetchInterval: 60_000,
  });

export const imageDetailsQueryOptions = (hostId: string, imageId: string) =>
  queryOptions({
    queryKey: [...IMAGES_KEY, 'details', hostId, imageId],
    queryFn: () => api(`/hosts/${hostId}/images/${imageId}`, imageDetailsSchema),
  });

export const prunePreviewQueryOptions = (hostId: string) =>
  queryOptions({
    queryKey: [...IMAGES_KEY, 'prune-preview', hostId],
    queryFn: () => api(`/hosts/${hostId}/images/prune`, imagePrunePreviewSchema),
    staleTime: 0,
  });

export const removeImage = (hostId: string, imageId: string, force: boolean) =>
  api(`/hosts/${hostId}/images/${imageId}`, imageRemoveResponseSchema, {
    method: 'DELETE',
    params: { force: force ? 'true' : undefined },
  });

export const pruneImages = (hostId: string) =>
  api(`/hosts/${hostId}/images/prune`, imagePruneResponseSchema, { method: 'POST', body: {} });

/** Cancels a pull under way on the host, whoever started it (its answer then ends in an error). */
export const cancelPull = (hostId: string, reference: string) =>
  api(`/hosts/${hostId}/images/pull/cancel`, okSchema, { method: 'POST', body: { reference } });

/**
 * Pulls `reference` on the host, calling `onLine` with each progress line as it arrives;
 * resolves with the last line (done or error). A refusal before the pull starts (unknown
 * image, bad reference, no permission) rejects with the server's words.
 */
export async function pullImage(
  hostId: string,
  reference: string,
  onLine: (line: ImagePullLine) => void,
  signal?: AbortSignal,
): Promise<ImagePullLine | null> {
  let res: Response;
  try {
    res = await fetch(`/api/hosts/${hostId}/images/pull`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
      body: JSON.stringify({ reference }),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch {
    throw new NetworkError();
  }
  if (!res.ok || res.body === null) {
    const text = await res.text();
    let detail = text || res.statusText;
    try {
      const body = JSON.parse(text) as { detail?: unknown };
      if (typeof body.detail === 'string') detail = body.detail;
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, detail);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let last: ImagePullLine | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let at = buffer.indexOf('\n');
    while (at >= 0) {
      const text = buffer.slice(0, at).trim();
      buffer = buffer.slice(at + 1);
      at = buffer.indexOf('\n');
      if (text === '') continue;
      const parsed = imagePullLineSchema.safeParse(JSON.parse(text));
      if (!parsed.success) continue;
      last = parsed.data;
      onLine(parsed.data);
    }
  }
  return last;
}
