import {
  networkCreatedSchema,
  networkDetailsSchema,
  networkPrunePreviewSchema,
  networkRemovedSchema,
  networksResponseSchema,
  resourcePruneResultSchema,
  type NetworkCreate,
} from '@berth/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Every key the networks screens use starts with this. */
export const NETWORKS_KEY = ['networks'] as const;

/** The fleet's networks, or one host's. */
export const networksQueryOptions = (hostId: string | null) =>
  queryOptions({
    queryKey: [...NETWORKS_KEY, 'list', hostId ?? 'all'],
    queryFn: () =>
      api('/networks', networksResponseSchema, { params: { host: hostId ?? undefined } }),
    staleTime: 10_000,
    refetchInterval: 60_000,
  });

export const networkDetailsQueryOptions = (hostId: string, id: string) =>
  queryOptions({
    queryKey: [...NETWORKS_KEY, 'details', hostId, id],
    queryFn: () => api(`/hosts/${hostId}/networks/${encodeURIComponent(id)}`, networkDetailsSchema),
  });

export const networkPrunePreviewQueryOptions = (hostId: string) =>
  queryOptions({
    queryKey: [...NETWORKS_KEY, 'prune-preview', hostId],
    queryFn: () => api(`/hosts/${hostId}/prune/networks`, networkPrunePreviewSchema),
    staleTime: 0,
  });

export const createNetwork = (hostId: string, body: NetworkCreate) =>
  api(`/hosts/${hostId}/networks`, networkCreatedSchema, { method: 'POST', body });

export const removeNetwork = (hostId: string, id: string) =>
  api(`/hosts/${hostId}/networks/${encodeURIComponent(id)}`, networkRemovedSchema, {
    method: 'DELETE',
  });

export const pruneNetworks = (hostId: string, ids: string[]) =>
  api(`/hosts/${hostId}/prune/networks`, resourcePruneResultSchema, {
    method: 'POST',
    body: { ids },
  });
