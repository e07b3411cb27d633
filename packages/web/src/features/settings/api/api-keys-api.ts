import {
  apiKeysResponseSchema,
  createdApiKeySchema,
  okSchema,
  type CreateApiKeyRequest,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: ['api-keys'],
    queryFn: async () => (await api('/api-keys', apiKeysResponseSchema)).keys,
  });

function useKeysMutation<V, R>(call: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => qc.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}

/** The answer holds the key itself: the only time it is ever sent. */
export const useCreateApiKey = () =>
  useKeysMutation((body: CreateApiKeyRequest) =>
    api('/api-keys', createdApiKeySchema, { method: 'POST', body }),
  );

export const useRevokeApiKey = () =>
  useKeysMutation((id: number) => api(`/api-keys/${id}`, okSchema, { method: 'DELETE' }));
