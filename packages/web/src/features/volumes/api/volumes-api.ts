import {
  resourcePruneResultSchema,
  volumeDetailsSchema,
  volumePrunePreviewSchema,
  volumeRemoveResponseSchema,
  volumeSchema,
  volumesResponseSchema,
  type VolumeCreate,
} from '@berth/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Every key the volumes screens use starts with this. */
export const VOLUMES_KEY = ['volumes'] as const;

/** The fleet's volumes, or one host's; sizes come from each engine's df (bounded there). */
export const volumesQueryOptions = (hostId: string | null) =>
  queryOptions({
    queryKey: [...VOLUMES_KEY, 'list', hostId ?? 'all'],
    queryFn: () =>
      api('/volumes', volumesResponseSchema, {
        params: { host: hostId ?? undefined, sizes: 'true' },
      }),
    staleTime: 10_000,
    refetchInterval: 60_000,
  });

export const volumeDetailsQueryOptions = (hostId: string, name: string) =>
  queryOptions({
    queryKey: [...VOLUMES_KEY, 'details', hostId, name],
    queryFn: () => api(`/hosts/${hostId}/volumes/${encodeURIComponent(name)}`, volumeDetailsSchema),
  });

export const volumePrunePreviewQueryOptions = (hostId: string) =>
  queryOptions({
    queryKey: [...VOLUMES_KEY, 'prune-preview', hostId],
    queryFn: () => api(`/hosts/${hostId}/prune/volumes`, volumePrunePreviewSchema),
    staleTime: 0,
  });

export const createVolume = (hostId: string, body: VolumeCreate) =>
  api(`/hosts/${hostId}/volumes`, volumeSchema, { method: 'POST', body });

export const removeVolume = (hostId: string, name: string, force: boolean) =>
  api(`/hosts/${hostId}/volumes/${encodeURIComponent(name)}`, volumeRemoveResponseSchema, {
    method: 'DELETE',
    params: { force: force ? 'true' : undefined },
  });

export const pruneVolumes = (hostId: string, names: string[]) =>
  api(`/hosts/${hostId}/prune/volumes`, resourcePruneResultSchema, {
    method: 'POST',
    body: { names },
  });
