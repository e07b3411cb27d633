import {
  deleteHostResponseSchema,
  enrollmentTokenResponseSchema,
  hostSchema,
  rotateAgentSecretResponseSchema,
  tagsResponseSchema,
  testConnectionResponseSchema,
  type HostPayloadInput,
} from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { containersQueryOptions, hostDetailQueryOptions, hostsQueryOptions } from '@/lib/queries';

export const useHosts = () => useQuery(hostsQueryOptions());

/** After any host change the host list and the containers list are stale. */
function useInvalidateHosts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: hostsQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: containersQueryOptions().queryKey }),
    ]);
}

export function useCreateHost() {
  const invalidate = useInvalidateHosts();
  return useMutation({
    mutationFn: (body: HostPayloadInput) => api('/hosts', hostSchema, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateHost() {
  const invalidate = useInvalidateHosts();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: HostPayloadInput }) =>
      api(`/hosts/${id}`, hostSchema, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}

export function useDeleteHost() {
  const invalidate = useInvalidateHosts();
  return useMutation({
    mutationFn: (id: string) => api(`/hosts/${id}`, deleteHostResponseSchema, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useTestConnection() {
  return useMutation({
    mutationFn: (body: HostPayloadInput) =>
      api('/hosts/test-connection', testConnectionResponseSchema, { method: 'POST', body }),
  });
}

export function usePatchHostTags() {
  const invalidate = useInvalidateHosts();
  return useMutation({
    mutationFn: ({ id, add, remove }: { id: string; add: string[]; remove: string[] }) =>
      api(`/hosts/${id}/tags`, tagsResponseSchema, {
        method: 'PATCH',
        body: { tags_to_add: add, tags_to_remove: remove },
      }),
    onSuccess: invalidate,
  });
}

export const useHostDetail = (hostId: string) => useQuery(hostDetailQueryOptions(hostId));

/** A one-time token an agent trades for its secret (valid 1 hour). */
export function useCreateEnrollmentToken() {
  return useMutation({
    mutationFn: () =>
      api('/agents/enrollment-tokens', enrollmentTokenResponseSchema, { method: 'POST' }),
  });
}

/** A new secret for a connected agent; it stays connected. */
export function useRotateAgentSecret() {
  return useMutation({
    mutationFn: (hostId: string) =>
      api(`/hosts/${hostId}/agent/rotate-secret`, rotateAgentSecretResponseSchema, {
        method: 'POST',
      }),
  });
}
